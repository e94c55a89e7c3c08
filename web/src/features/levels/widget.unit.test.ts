import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVELS, levelProgress, levelTexts } from '../progress/levels';
import { postWording, widgetLabel, widgetSummary } from './widget';

describe('levels widget', () => {
  it("uses the site's post wording, with the defaults for blanks", () => {
    expect(postWording({ postsingular: 'reminder', postplural: 'reminders' })).toEqual({
      singular: 'reminder',
      plural: 'reminders',
    });
    expect(postWording({ postsingular: ' ', postplural: undefined })).toEqual({
      singular: 'post',
      plural: 'posts',
    });
  });

  it('shows the current level and the way to the next, in the panel texts of reader.md', () => {
    const texts = levelTexts(
      levelProgress(DEFAULT_LEVELS, 25),
      postWording({ postsingular: 'reminder', postplural: 'reminders' }),
    );
    expect(texts).toMatchObject({
      kind: 'progress',
      title: 'Your Progress',
      currentCountLabel: 'Current count',
      currentCount: 25,
      message: 'Read 15 more reminders to reach Advanced Level',
      currentLevelLabel: 'Current Level',
      currentLevelTitle: 'Intermediate',
      nextLevelLabel: 'Next Level',
      nextLevelTitle: 'Advanced',
      percent: 25,
    });
    expect(widgetSummary(texts)).toEqual({ title: 'Intermediate', percent: 25 });
    expect(widgetLabel(texts)).toBe('Level: Intermediate, 25% to the next level. Open Your Progress');
  });

  it('congratulates at the top level and says when there are no levels', () => {
    const top = levelTexts(levelProgress(DEFAULT_LEVELS, 40));
    expect(top).toMatchObject({
      message: "Congratulations! You've reached the highest level!",
      nextLevelLabel: null,
    });
    expect(widgetSummary(top)).toEqual({ title: 'Advanced', percent: 100 });
    expect(widgetLabel(top)).toBe('Level: Advanced, the highest level. Open Your Progress');
    const none = levelTexts(levelProgress([], 3));
    expect(none).toEqual({ kind: 'empty', message: 'No levels data available' });
    expect(widgetSummary(none)).toEqual({ title: 'No levels data available', percent: null });
    expect(widgetLabel(none)).toBe('No levels data available. Open Your Progress');
  });
});
