/** admin.md §2, §4, §8: the report viewer's pure rules. */
import type { ReportDownloadResponse } from '@nudge/contracts';
import { toCsv } from '@nudge/contracts/csv';
import { MONTH_NAMES } from '@nudge/contracts/days';

export type ReportView = 'monthly' | 'quarterly';

export interface ReportRow {
  period: string;
  uniquePeopleCount: number;
  activePeopleCount: number;
  activePeoplePercentage: number;
  questionsSent: number;
  questionsAnswered: number;
  responseRate: number;
  answers: Array<{ qid: string; total: number }>;
}

export interface ReportQuestion {
  _id: string;
  body: string;
  scale: string;
}

export interface ReportData {
  success: boolean;
  logo: string;
  data: ReportRow[];
  pagination: { currentPage: number; totalPages: number };
  questions: ReportQuestion[];
}

export const DEFAULT_PAGE_SIZE = 6;

/** Switching view: page 1; size 4 from monthly to quarterly, 6 from quarterly to monthly. */
export function switchView(
  from: ReportView,
  to: ReportView,
  pageSize: number,
): { page: number; pageSize: number } {
  if (from === to) return { page: 1, pageSize };
  return { page: 1, pageSize: to === 'quarterly' ? 4 : 6 };
}

/** Navigation is limited to 1..totalPages. */
export const clampPage = (page: number, totalPages: number): number =>
  Math.min(Math.max(1, page), Math.max(1, totalPages));

const QUARTERS: Record<string, string> = {
  Q1: 'Q1 Jan-Mar',
  Q2: 'Q2 Apr-Jun',
  Q3: 'Q3 Jul-Sep',
  Q4: 'Q4 Oct-Dec',
};

/** '2026-11' -> { year: '2026', label: 'November' }; '2026-Q4' -> { year: '2026', label: 'Q4 Oct-Dec' }. */
export function periodLabel(period: string): { year: string; label: string } {
  const [year = '', part = ''] = period.split('-');
  if (part.startsWith('Q')) return { year, label: QUARTERS[part] ?? part };
  const month = Number(part);
  return { year, label: MONTH_NAMES[month - 1] ?? part };
}

/** Columns sorted newest first. */
export const newestFirst = (rows: ReportRow[]): ReportRow[] =>
  [...rows].sort((a, b) => periodKey(b.period) - periodKey(a.period));

function periodKey(period: string): number {
  const [year = '0', part = '0'] = period.split('-');
  const sub = part.startsWith('Q') ? Number(part.slice(1)) * 3 : Number(part);
  return Number(year) * 100 + sub;
}

/** The Year header row: one cell per year spanning its periods, in column order. */
export function yearHeaders(rows: ReportRow[]): Array<{ year: string; span: number }> {
  const headers: Array<{ year: string; span: number }> = [];
  for (const row of rows) {
    const { year } = periodLabel(row.period);
    const last = headers.at(-1);
    if (last && last.year === year) last.span += 1;
    else headers.push({ year, span: 1 });
  }
  return headers;
}

/** A question's cell: its answer total in that period, or NA. */
export function answerCell(row: ReportRow, qid: string): string {
  const answer = row.answers?.find((a) => a.qid === qid);
  return answer ? String(answer.total) : 'NA';
}

export const METRIC_ROWS: Array<{ label: string; value: (row: ReportRow) => string }> = [
  { label: 'Unique People Count', value: (r) => String(r.uniquePeopleCount) },
  { label: 'Active People', value: (r) => String(r.activePeopleCount) },
  { label: 'Active People %', value: (r) => `${r.activePeoplePercentage}%` },
  { label: 'Questions Sent', value: (r) => String(r.questionsSent) },
  { label: 'Questions Answered', value: (r) => String(r.questionsAnswered) },
  { label: 'Response Rate', value: (r) => `${r.responseRate}%` },
];

export type ReportErrorView = 'noAccess' | 'invalidId' | 'other';

/** admin.md §8: which error view a failed load shows. */
export function errorView(message: string): ReportErrorView {
  if (message === 'Access Denied') return 'noAccess';
  if (message === 'Invalid report id') return 'invalidId';
  return 'other';
}

export const ERROR_TEXT: Record<ReportErrorView, string> = {
  noAccess: 'No Access to this Report..',
  invalidId: 'Invalid report id, Please check report id...',
  other: 'Something Bad Happen!',
};

/** The download answer's data (GET /api/report/download). */
export type ReportCsv = ReportDownloadResponse['data'];

/** report_data.csv from the download answer: Year, Period, then the metrics by label (absent ones 0). */
export function reportCsv(csv: ReportCsv): string {
  const metrics = csv.headers.metrics ?? [];
  return toCsv(
    [csv.headers.year, csv.headers.period, ...metrics.map((m) => m.label)],
    (csv.rows ?? []).map((row) => [row.year ?? '', row.period ?? '', ...metrics.map((m) => row[m.key] ?? 0)]),
  );
}
