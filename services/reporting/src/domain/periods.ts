import { MONTH_NAMES } from '@nudge/contracts/days';
/** Calendar months or quarters in UTC, as the report viewer lists them. */
export type View = 'monthly' | 'quarterly';

export interface Period {
  /** '2026-11' or '2026-Q4'. */
  key: string;
  year: number;
  /** Month 1-12 (monthly) or quarter 1-4 (quarterly). */
  index: number;
  /** First instant of the period (UTC). */
  start: Date;
  /** First instant after the period. */
  end: Date;
}

export const periodOf = (view: View, at: Date): Period => {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  if (view === 'monthly') {
    return {
      key: `${year}-${String(month + 1).padStart(2, '0')}`,
      year,
      index: month + 1,
      start: new Date(Date.UTC(year, month, 1)),
      end: new Date(Date.UTC(year, month + 1, 1)),
    };
  }
  const q = Math.floor(month / 3);
  return {
    key: `${year}-Q${q + 1}`,
    year,
    index: q + 1,
    start: new Date(Date.UTC(year, q * 3, 1)),
    end: new Date(Date.UTC(year, q * 3 + 3, 1)),
  };
};

/** Every period from the one holding `from` to the one holding `to`, newest first. */
export function periodsBetween(view: View, from: Date, to: Date): Period[] {
  const out: Period[] = [];
  let p = periodOf(view, to);
  const first = periodOf(view, from).start.getTime();
  while (p.start.getTime() >= first) {
    out.push(p);
    p = periodOf(view, new Date(p.start.getTime() - 1));
  }
  return out;
}

/** 'November' or 'Q4': the CSV's period column. */
export const periodLabel = (view: View, p: Period): string =>
  view === 'monthly' ? (MONTH_NAMES[p.index - 1] as string) : `Q${p.index}`;

/** x / of * 100 with one decimal; 0 when of is 0. */
export const percent = (x: number, of: number): number => (of > 0 ? Math.round((x / of) * 1000) / 10 : 0);

/** 'YYYY-MM-DD' of a UTC date (a ClickHouse Date parameter). */
export const chDate = (d: Date): string => d.toISOString().slice(0, 10);
