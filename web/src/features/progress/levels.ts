// Levels widget rules (reader.md §2 levels widget, §3 levels setting, §4 Level). Pure functions.

export interface Level {
  title: string;
  count: number;
}

/** Default levels setting (reader.md §3). */
export const DEFAULT_LEVELS: readonly Level[] = [
  { title: 'Beginner', count: 0 },
  { title: 'Intermediate', count: 20 },
  { title: 'Advanced', count: 40 },
];

/** The level a reader is at before reaching the first configured level (reader.md §4). */
export const STARTING_LEVEL_TITLE = 'Starting';

export interface LevelProgress {
  /** The read total the progress was computed for (negative or fractional input is floored to 0 and up). */
  total: number;
  /** Highest level whose count is at or below the total, or { title: 'Starting', count: 0 } before the first. */
  current: Level;
  /** First level whose count is above the total; null at the top level. */
  next: Level | null;
  /** Position between current and next counts, 0-100; 100 at the top level. */
  percent: number;
  /** Reads still needed to reach next (next.count - total); null at the top level. */
  remaining: number | null;
  atTopLevel: boolean;
}

/** Levels with a usable count, sorted ascending by count (stable, so equal counts keep their order). */
export function sortLevels(levels: readonly Level[]): Level[] {
  return levels.filter((level) => Number.isFinite(level.count)).sort((a, b) => a.count - b.count);
}

/**
 * Where `total` reads place the reader among `levels` (any order). Null when there are no levels.
 * Choices:
 * - 'Starting' counts from 0, so the progress before the first level is total / first.count.
 * - The percent is floored, so it only shows 100 at the top level (199 of 200 shows 99, not 100).
 * - Duplicate counts are not expected (the admin side forbids them); if present, the later one in the
 *   sorted list is the current level and the next level is the first with a strictly higher count.
 */
export function levelProgress(levels: readonly Level[], total: number): LevelProgress | null {
  const sorted = sortLevels(levels);
  if (sorted.length === 0) return null;
  const reads = Number.isFinite(total) ? Math.max(0, Math.floor(total)) : 0;

  const reached = sorted.filter((level) => level.count <= reads);
  const current = reached.at(-1) ?? { title: STARTING_LEVEL_TITLE, count: 0 };
  const next = sorted.find((level) => level.count > reads) ?? null;

  if (!next) return { total: reads, current, next: null, percent: 100, remaining: null, atTopLevel: true };

  // current.count <= reads < next.count, so the span is positive and the position is in [0, 1).
  const span = next.count - current.count;
  const percent = Math.min(100, Math.max(0, Math.floor(((reads - current.count) / span) * 100)));
  return { total: reads, current, next, percent, remaining: next.count - reads, atTopLevel: false };
}

// ── texts ──────────────────────────────────────────────────────────────────────────────────────────────────

export const LEVEL_TEXTS = {
  panelTitle: 'Your Progress',
  currentCount: 'Current count',
  currentLevel: 'Current Level',
  nextLevel: 'Next Level',
  highestLevel: "Congratulations! You've reached the highest level!",
  noLevels: 'No levels data available',
} as const;

/** The site's words for a post (settings postsingular / postplural; defaults 'post' / 'posts'). */
export interface PostWording {
  singular: string;
  plural: string;
}

export const DEFAULT_POST_WORDING: PostWording = { singular: 'post', plural: 'posts' };

/**
 * 'Read N more post(s) to reach X Level'.
 * Choice: the spec's 'post(s)' is read as singular/plural, using the site's own words: 'Read 1 more post to
 * reach Intermediate Level', 'Read 3 more posts to reach Intermediate Level'.
 */
export function remainingText(
  remaining: number,
  nextTitle: string,
  wording: PostWording = DEFAULT_POST_WORDING,
): string {
  const noun = remaining === 1 ? wording.singular : wording.plural;
  return `Read ${remaining} more ${noun} to reach ${nextTitle} Level`;
}

export type LevelPanelTexts =
  | { kind: 'empty'; message: string }
  | {
      kind: 'progress';
      title: string;
      currentCountLabel: string;
      currentCount: number;
      /** remainingText(...) below the top level, the congratulations text at it. */
      message: string;
      percent: number;
      currentLevelLabel: string;
      currentLevelTitle: string;
      /** Null at the top level (no Next Level badge). */
      nextLevelLabel: string | null;
      nextLevelTitle: string | null;
    };

/** Everything the 'Your Progress' panel shows, from levelProgress(...). */
export function levelTexts(
  progress: LevelProgress | null,
  wording: PostWording = DEFAULT_POST_WORDING,
): LevelPanelTexts {
  if (!progress) return { kind: 'empty', message: LEVEL_TEXTS.noLevels };
  const { next } = progress;
  return {
    kind: 'progress',
    title: LEVEL_TEXTS.panelTitle,
    currentCountLabel: LEVEL_TEXTS.currentCount,
    currentCount: progress.total,
    message:
      next && progress.remaining !== null
        ? remainingText(progress.remaining, next.title, wording)
        : LEVEL_TEXTS.highestLevel,
    percent: progress.percent,
    currentLevelLabel: LEVEL_TEXTS.currentLevel,
    currentLevelTitle: progress.current.title,
    nextLevelLabel: next ? LEVEL_TEXTS.nextLevel : null,
    nextLevelTitle: next ? next.title : null,
  };
}
