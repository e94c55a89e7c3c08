import { CSV_BOM } from '@nudge/contracts/csv';
import { describe, expect, it } from 'vitest';
import {
  answerCell,
  clampPage,
  errorView,
  newestFirst,
  periodLabel,
  type ReportRow,
  reportCsv,
  switchView,
  yearHeaders,
} from './rules';

const row = (period: string, answers: ReportRow['answers'] = []): ReportRow => ({
  period,
  uniquePeopleCount: 1,
  activePeopleCount: 1,
  activePeoplePercentage: 100,
  questionsSent: 1,
  questionsAnswered: 1,
  responseRate: 100,
  answers,
});

describe('report viewer rules', () => {
  it('switches page size 6 <-> 4 and goes back to page 1', () => {
    expect(switchView('monthly', 'quarterly', 6)).toEqual({ page: 1, pageSize: 4 });
    expect(switchView('quarterly', 'monthly', 4)).toEqual({ page: 1, pageSize: 6 });
    expect(switchView('monthly', 'monthly', 6)).toEqual({ page: 1, pageSize: 6 });
  });

  it('limits navigation to 1..totalPages', () => {
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(4, 3)).toBe(3);
    expect(clampPage(2, 0)).toBe(1);
  });

  it('labels months and quarters, and puts the newest period first under its year', () => {
    expect(periodLabel('2026-11')).toEqual({ year: '2026', label: 'November' });
    expect(periodLabel('2026-Q1')).toEqual({ year: '2026', label: 'Q1 Jan-Mar' });
    const sorted = newestFirst([row('2025-12'), row('2026-02'), row('2026-01')]);
    expect(sorted.map((r) => r.period)).toEqual(['2026-02', '2026-01', '2025-12']);
    expect(yearHeaders(sorted)).toEqual([
      { year: '2026', span: 2 },
      { year: '2025', span: 1 },
    ]);
    expect(newestFirst([row('2025-Q4'), row('2026-Q1')]).map((r) => r.period)).toEqual([
      '2026-Q1',
      '2025-Q4',
    ]);
  });

  it('shows a question total or NA', () => {
    expect(answerCell(row('2026-01', [{ qid: 'q1', total: 7 }]), 'q1')).toBe('7');
    expect(answerCell(row('2026-01'), 'q1')).toBe('NA');
  });

  it('maps the server messages to the three error views', () => {
    expect(errorView('Access Denied')).toBe('noAccess');
    expect(errorView('Invalid report id')).toBe('invalidId');
    expect(errorView('Service unavailable')).toBe('other');
  });

  it('builds report_data.csv rows with absent metrics as 0', () => {
    const csv = reportCsv({
      headers: {
        year: 'Year',
        period: 'Period',
        metrics: [
          { key: 'uniquePeopleCount', label: 'Unique People Count' },
          { key: 'q1', label: 'How did you sleep?' },
        ],
      },
      rows: [{ year: 2026, period: 'November', uniquePeopleCount: 4 }],
    });
    expect(csv).toBe(`${CSV_BOM}Year,Period,Unique People Count,How did you sleep?\r\n2026,November,4,0\r\n`);
  });
});
