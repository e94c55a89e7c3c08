// Calendar days in a reader's IANA time zone: the boundary of today's post (content), of the reading history,
// streak and weekly strip (engagement, web). Pure and zod-free, so the web app imports it at run time
// (`@nudge/contracts/days`) without pulling zod into the bundle.

export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const resolvedZone = (timeZone: string): string | null => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
};

/**
 * IANA's current names of zones that ICU's (CLDR's) database still calls by an older one: Node 20 resolves
 * `Asia/Kolkata` to `Asia/Calcutta`. Read from the engine, so an engine that already answers IANA's names needs none.
 */
const IANA_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'Africa/Asmara',
    'America/Argentina/Buenos_Aires',
    'America/Argentina/Catamarca',
    'America/Argentina/Cordoba',
    'America/Argentina/Jujuy',
    'America/Argentina/Mendoza',
    'America/Atikokan',
    'America/Indiana/Indianapolis',
    'America/Kentucky/Louisville',
    'America/Nuuk',
    'Asia/Ho_Chi_Minh',
    'Asia/Kathmandu',
    'Asia/Kolkata',
    'Asia/Yangon',
    'Atlantic/Faroe',
    'Europe/Kyiv',
    'Pacific/Chuuk',
    'Pacific/Kanton',
    'Pacific/Pohnpei',
  ].flatMap((name) => {
    const resolved = resolvedZone(name);
    return resolved && resolved !== name ? [[resolved, name] as const] : [];
  }),
);

/**
 * A zone's one name, its canonical IANA name: the engine's time zone database resolves the case
 * (`aMeRiCa/nEw_york` -> `America/New_York`) and links to their zone (`US/Eastern` -> `America/New_York`), and a zone
 * IANA has renamed gets IANA's name (`asia/calcutta` -> `Asia/Kolkata`). So the zones readers are in stay a small set
 * of real names. Null when it is no zone.
 */
export function canonicalTimeZone(timeZone: string): string | null {
  const resolved = resolvedZone(timeZone);
  return resolved === null ? null : (IANA_NAMES.get(resolved) ?? resolved);
}

/** The zone to count days in: an empty or unknown zone is UTC (never a throw inside a request or a render). */
export function usableTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return DEFAULT_TIME_ZONE;
  try {
    formatterFor(timeZone);
    return timeZone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** 'YYYY-MM-DD' of the calendar day `instant` falls on in `timeZone`. */
export function dayKey(instant: Date, timeZone: string | null | undefined): string {
  const parts = formatterFor(usableTimeZone(timeZone)).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** The calendar day of a key as a Date at 00:00 UTC (format it with timeZone 'UTC' to show that day). */
export function dayKeyToUtcDate(key: string): Date {
  const [year, month, day] = key.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}

/** The day `days` calendar days after `key` (negative for before); no instants, so DST never skips or repeats a day. */
export function addDays(key: string, days: number): string {
  const date = dayKeyToUtcDate(key);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** English month names, January first (report periods, admin.md §2). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The same calendar day `months` later (clamped to the month's last day), in UTC: billing cycles, the one-month answer to data requests. */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
