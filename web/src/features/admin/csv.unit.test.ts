import { CSV_BOM, EVENT_LOG_CSV_COLUMNS } from '@nudge/contracts/csv';
import { formulaStarts, HOSTILE_CSV_VALUES } from '@nudge/contracts/testing';
import { describe, expect, it } from 'vitest';
import { CHECKIN_CSV_HEADERS, checkinsCsv, eventLogsCsv } from './csv';
import { reportCsv } from './report/rules';

const question = (body: string, tags: string[] = []) => ({
  _id: 'q1',
  body,
  order: 2,
  scale: 'reverse',
  tags,
  status: false,
  createdAt: '2026-11-01T00:00:00.000Z',
});

describe('admin CSV files', () => {
  it('writes CheckIns.csv with the columns Id, Body, Order, Scale, Tags, Status, Created On, CRLF-ended', () => {
    const csv = checkinsCsv([question('How calm, today?', ['calm', 'mood'])]);
    expect(csv).toBe(
      `${CSV_BOM}${CHECKIN_CSV_HEADERS.join(',')}\r\n` +
        'q1,"How calm, today?",2,reverse,"calm, mood",Paused,2026-11-01T00:00:00.000Z\r\n',
    );
  });

  it('neutralises every formula trigger in the admin downloads: CheckIns.csv, EventLogs.csv and report_data.csv', () => {
    const checkins = checkinsCsv(HOSTILE_CSV_VALUES.map((v) => question(v, [v, v])));
    const events = eventLogsCsv(
      JSON.stringify({
        data: HOSTILE_CSV_VALUES.map((v) => ({
          _id: 'e1',
          userId: 'u1',
          userEmail: v,
          eventType: 'page_visit',
          eventValue: v,
          createdAt: 'c',
        })),
      }),
    );
    const report = reportCsv({
      headers: {
        year: 'Year',
        period: 'Month',
        metrics: HOSTILE_CSV_VALUES.map((label, i) => ({ key: `q${i}`, label })),
      },
      rows: HOSTILE_CSV_VALUES.map((period) => ({ year: 2026, period, q0: -1 })),
    });
    for (const csv of [checkins, events, report]) expect(formulaStarts(csv)).toEqual([]);
    expect(checkins).toContain(`,"x;'=cmd|' /C calc'!A0",`);
    expect(events).toContain(`,"'\t=1+1",`);
    expect(events).toContain(`,"'\r'=1+1",`);
    // A number stays a number.
    expect(report).toContain(`\r\n2026,"x;'=cmd|' /C calc'!A0",-1,0,`);
  });
});

describe('EventLogs.csv', () => {
  it('keeps a streamed CSV as it came, and writes a JSON answer with the six columns', () => {
    expect(eventLogsCsv('Id,User Id\r\n1,2\r\n')).toBe('Id,User Id\r\n1,2\r\n');
    const csv = eventLogsCsv(
      JSON.stringify({
        data: [
          {
            _id: 'e1',
            userId: 'u1',
            userEmail: 'a@x.com',
            eventType: 'page_visit',
            eventValue: '/',
            createdAt: 'c',
          },
        ],
      }),
    );
    expect(csv).toBe(`${CSV_BOM}${EVENT_LOG_CSV_COLUMNS.join(',')}\r\ne1,u1,a@x.com,page_visit,/,c\r\n`);
  });
});
