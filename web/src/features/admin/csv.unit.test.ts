import { describe, expect, it } from 'vitest';
import { CHECKIN_CSV_HEADERS, checkinsCsv, csvCell } from './csv';

describe('admin CSV files', () => {
  it('quotes cells with commas or quotes and neutralises formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(null)).toBe('');
  });

  it('writes CheckIns.csv with the columns Id, Body, Order, Scale, Tags, Status, Created On', () => {
    const csv = checkinsCsv([
      {
        _id: 'q1',
        body: 'How calm, today?',
        order: 2,
        scale: 'reverse',
        tags: ['calm', 'mood'],
        status: false,
        createdAt: '2026-11-01T00:00:00.000Z',
      },
    ]);
    const [head, row] = csv.split('\n');
    expect(head).toBe(CHECKIN_CSV_HEADERS.join(','));
    expect(row).toBe('q1,"How calm, today?",2,reverse,"calm, mood",Paused,2026-11-01T00:00:00.000Z');
  });
});

describe('EventLogs.csv', () => {
  it('keeps a streamed CSV as it came, and writes a JSON answer with the six columns', async () => {
    const { eventLogsCsv, EVENT_LOG_CSV_HEADERS } = await import('./csv');
    expect(eventLogsCsv('Id,User Id\n1,2')).toBe('Id,User Id\n1,2');
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
    expect(csv.split('\n')).toEqual([EVENT_LOG_CSV_HEADERS.join(','), 'e1,u1,a@x.com,page_visit,/,c']);
  });
});
