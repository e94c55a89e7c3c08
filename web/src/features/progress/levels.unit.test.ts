import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVELS, type Level, levelProgress, levelTexts, remainingText, sortLevels } from './levels';

const beginner = { title: 'Beginner', count: 0 };
const intermediate = { title: 'Intermediate', count: 20 };
const advanced = { title: 'Advanced', count: 40 };

describe('levelProgress with the default levels (0, 20, 40)', () => {
  it.each([
    { total: 0, current: beginner, next: intermediate, percent: 0, remaining: 20 },
    { total: 1, current: beginner, next: intermediate, percent: 5, remaining: 19 },
    { total: 19, current: beginner, next: intermediate, percent: 95, remaining: 1 },
    { total: 20, current: intermediate, next: advanced, percent: 0, remaining: 20 },
    { total: 30, current: intermediate, next: advanced, percent: 50, remaining: 10 },
    { total: 39, current: intermediate, next: advanced, percent: 95, remaining: 1 },
  ])('at $total reads: $current.title, $percent% towards $next.title', ({ total, ...expected }) => {
    expect(levelProgress(DEFAULT_LEVELS, total)).toEqual({ total, atTopLevel: false, ...expected });
  });

  it.each([40, 41, 100])('at %i reads is at the top level with 100% and no next level', (total) => {
    expect(levelProgress(DEFAULT_LEVELS, total)).toEqual({
      total,
      current: advanced,
      next: null,
      percent: 100,
      remaining: null,
      atTopLevel: true,
    });
  });
});

describe('levelProgress edge cases', () => {
  const withoutZero: Level[] = [
    { title: 'Bronze', count: 10 },
    { title: 'Silver', count: 30 },
  ];

  it('is titled Starting (from 0) before the first level when the lowest count is above 0', () => {
    expect(levelProgress(withoutZero, 0)).toMatchObject({
      current: { title: 'Starting', count: 0 },
      next: { title: 'Bronze', count: 10 },
      percent: 0,
      remaining: 10,
    });
    expect(levelProgress(withoutZero, 5)?.percent).toBe(50);
    expect(levelProgress(withoutZero, 9)).toMatchObject({ percent: 90, remaining: 1 });
    expect(levelProgress(withoutZero, 10)).toMatchObject({
      current: { title: 'Bronze' },
      next: { title: 'Silver' },
      percent: 0,
      remaining: 20,
    });
  });

  it('sorts unsorted levels by count without changing the input', () => {
    const unsorted = [advanced, beginner, intermediate];
    expect(levelProgress(unsorted, 25)).toEqual(levelProgress(DEFAULT_LEVELS, 25));
    expect(levelProgress(unsorted, 25)?.current).toEqual(intermediate);
    expect(unsorted).toEqual([advanced, beginner, intermediate]);
    expect(sortLevels(unsorted)).toEqual([beginner, intermediate, advanced]);
  });

  it('is null for an empty list', () => {
    expect(levelProgress([], 10)).toBeNull();
  });

  it('ignores levels whose count is not a number', () => {
    expect(sortLevels([{ title: 'Broken', count: Number.NaN }, beginner])).toEqual([beginner]);
    expect(levelProgress([{ title: 'Broken', count: Number.NaN }], 3)).toBeNull();
  });

  it('treats a single level at 0 as the top level from the start', () => {
    expect(levelProgress([{ title: 'Reader', count: 0 }], 0)).toMatchObject({
      atTopLevel: true,
      percent: 100,
    });
  });

  it('floors the percent so it only shows 100 at the top level', () => {
    const levels = [
      { title: 'A', count: 0 },
      { title: 'B', count: 200 },
    ];
    expect(levelProgress(levels, 199)?.percent).toBe(99);
    expect(levelProgress(levels, 1)?.percent).toBe(0);
  });

  it('treats a negative or fractional total as whole reads from 0', () => {
    expect(levelProgress(DEFAULT_LEVELS, -5)).toMatchObject({ total: 0, current: beginner, remaining: 20 });
    expect(levelProgress(DEFAULT_LEVELS, 19.7)).toMatchObject({ total: 19, remaining: 1 });
    expect(levelProgress(DEFAULT_LEVELS, Number.NaN)).toMatchObject({ total: 0 });
  });

  it('with (unexpected) duplicate counts takes the later one as current and the next strictly higher count', () => {
    const levels = [beginner, { title: 'Twenty A', count: 20 }, { title: 'Twenty B', count: 20 }];
    expect(levelProgress(levels, 10)).toMatchObject({ current: beginner, next: { title: 'Twenty A' } });
    expect(levelProgress(levels, 20)).toMatchObject({ current: { title: 'Twenty B' }, next: null });
  });
});

describe('remainingText', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(remainingText(1, 'Intermediate')).toBe('Read 1 more post to reach Intermediate Level');
    expect(remainingText(3, 'Intermediate')).toBe('Read 3 more posts to reach Intermediate Level');
    expect(remainingText(20, 'Advanced')).toBe('Read 20 more posts to reach Advanced Level');
  });

  it("uses the site's own words for a post", () => {
    const wording = { singular: 'reminder', plural: 'reminders' };
    expect(remainingText(1, 'Advanced', wording)).toBe('Read 1 more reminder to reach Advanced Level');
    expect(remainingText(2, 'Advanced', wording)).toBe('Read 2 more reminders to reach Advanced Level');
  });
});

describe('levelTexts', () => {
  it('below the top level shows the count, the remaining reads and both badges', () => {
    expect(levelTexts(levelProgress(DEFAULT_LEVELS, 17))).toEqual({
      kind: 'progress',
      title: 'Your Progress',
      currentCountLabel: 'Current count',
      currentCount: 17,
      message: 'Read 3 more posts to reach Intermediate Level',
      percent: 85,
      currentLevelLabel: 'Current Level',
      currentLevelTitle: 'Beginner',
      nextLevelLabel: 'Next Level',
      nextLevelTitle: 'Intermediate',
    });
    expect(levelTexts(levelProgress(DEFAULT_LEVELS, 39))).toMatchObject({
      message: 'Read 1 more post to reach Advanced Level',
    });
  });

  it('before the first level names Starting as the current level', () => {
    const texts = levelTexts(levelProgress([{ title: 'Bronze', count: 10 }], 4));
    expect(texts).toMatchObject({
      currentLevelTitle: 'Starting',
      nextLevelTitle: 'Bronze',
      message: 'Read 6 more posts to reach Bronze Level',
    });
  });

  it('at the top level congratulates and has no Next Level badge', () => {
    expect(levelTexts(levelProgress(DEFAULT_LEVELS, 40))).toEqual({
      kind: 'progress',
      title: 'Your Progress',
      currentCountLabel: 'Current count',
      currentCount: 40,
      message: "Congratulations! You've reached the highest level!",
      percent: 100,
      currentLevelLabel: 'Current Level',
      currentLevelTitle: 'Advanced',
      nextLevelLabel: null,
      nextLevelTitle: null,
    });
  });

  it('says there is no levels data for an empty list', () => {
    expect(levelTexts(levelProgress([], 5))).toEqual({ kind: 'empty', message: 'No levels data available' });
  });

  it('passes the post wording through', () => {
    const texts = levelTexts(levelProgress(DEFAULT_LEVELS, 19), { singular: 'nudge', plural: 'nudges' });
    expect(texts).toMatchObject({ message: 'Read 1 more nudge to reach Intermediate Level' });
  });
});
