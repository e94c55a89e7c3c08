/** admin.md §5 and §9: the admin forms' rules, kept pure so they are tested without a browser. */

export const EXPORT_RANGE_MAX = 10_000;

/** The user export by range: the message to show, or null when the range may be asked for. */
export function exportRangeError(fromText: string, toText: string, total: number): string | null {
  if (toText.trim() === '') return 'Please enter To value';
  const from = Number(fromText || 1);
  const to = Number(toText);
  if (from > to || to > total) return 'From value should be less than To value';
  if (to - from > EXPORT_RANGE_MAX) return 'Difference should be less than 10000';
  return null;
}

/** admin.md §5: notification times every 15 minutes from 00:00 to 23:45. */
export const NOTIFICATION_TIMES: string[] = Array.from({ length: 96 }, (_, i) => {
  const h = String(Math.floor(i / 4)).padStart(2, '0');
  const m = String((i % 4) * 15).padStart(2, '0');
  return `${h}:${m}`;
});
export const DEFAULT_NOTIFICATION_TIME = '08:00';

/** 'a@x.com  b@y.com' -> ['a@x.com', 'b@y.com']. */
export const splitEmails = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** admin.md §5: a subject is added only when non-empty and not already listed by title. */
export function addSubject<S extends { title: string }>(
  subjects: S[],
  input: string,
  make: (title: string) => S,
): S[] {
  const title = input.trim();
  if (!title || subjects.some((s) => s.title === title)) return subjects;
  return [...subjects, make(title)];
}

/** Tags are added one at a time; an empty or duplicate tag is ignored. */
export function addTag(tags: string[], input: string): string[] {
  const tag = input.trim();
  return !tag || tags.includes(tag) ? tags : [...tags, tag];
}

/** Report id lists: comma-separated, trimmed, blanks dropped, duplicates removed. */
export const parseIdList = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];

export const AI_PROMPT_MAX = 5000;

/** The body prompt's message, or null when it may be sent. */
export const promptError = (prompt: string): string | null =>
  prompt.length > AI_PROMPT_MAX ? 'Prompt must be 5000 characters or less' : null;

/** Generated subject lines: one per line, list markers and quotes taken off, blanks dropped. */
export const parseSubjectLines = (content: string): string[] =>
  content
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '')
        .replace(/^["'“]|["'”]$/g, '')
        .trim(),
    )
    .filter(Boolean);

/** Subject lines offered when the generator fails ('Using fallback subject lines'), made from the heading. */
export const fallbackSubjects = (heading: string): string[] => {
  const topic = heading.trim() || 'today';
  return [`Your daily nudge: ${topic}`, `A minute for ${topic}`, `Today's thought: ${topic}`];
};

export type UseSubjectsResult =
  | { ok: true; subjects: string[]; duplicates: string[] }
  | { ok: false; message: string };

/**
 * admin.md §5: using the selected generated lines. None selected, or all already present, or nothing left to use
 * each give their message; otherwise the new titles (duplicates are reported).
 */
export function useSelectedSubjects(selected: string[], existing: string[]): UseSubjectsResult {
  if (selected.length === 0) return { ok: false, message: 'Please select at least one subject line' };
  const titles = new Set(existing);
  const fresh = [...new Set(selected.map((s) => s.trim()).filter(Boolean))].filter((s) => !titles.has(s));
  const duplicates = selected.filter((s) => titles.has(s.trim()));
  if (fresh.length === 0 && duplicates.length > 0)
    return { ok: false, message: 'All selected subjects already exist...' };
  if (fresh.length === 0) return { ok: false, message: 'No subjects to use' };
  return { ok: true, subjects: fresh, duplicates };
}

export interface Level {
  title: string;
  count: number;
}

export type LevelsResult = { ok: true; levels: Level[] } | { ok: false; message: string };

const sortLevels = (levels: Level[]) => [...levels].sort((a, b) => a.count - b.count);

/** Adds or edits (at `index`) a level: count a whole number 0 or more and unique, title non-blank; sorted by count. */
export function putLevel(
  levels: Level[],
  level: { title: string; count: string },
  index?: number,
): LevelsResult {
  const title = level.title.trim();
  const count = Number(level.count);
  if (!title) return { ok: false, message: 'Level title must not be blank' };
  if (level.count.trim() === '' || !Number.isInteger(count) || count < 0)
    return { ok: false, message: 'Level count must be a whole number, 0 or more' };
  if (levels.some((l, i) => l.count === count && i !== index))
    return { ok: false, message: 'A level with this count already exists!' };
  const next =
    index === undefined
      ? [...levels, { title, count }]
      : levels.map((l, i) => (i === index ? { title, count } : l));
  return { ok: true, levels: sortLevels(next) };
}

export function removeLevel(levels: Level[], index: number): LevelsResult {
  if (levels.length <= 1) return { ok: false, message: 'You must have at least one level!' };
  return { ok: true, levels: levels.filter((_, i) => i !== index) };
}
