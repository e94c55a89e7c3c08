import { describe, expect, it } from 'vitest';
import { cssVariables, fontStack } from './cssVariables';
import { DEFAULT_SETTINGS, SYSTEM_FONT_STACK } from './defaults';
import { mergeSettings } from './merge';
import { feedTabLabels, signOutDestination } from './wording';

describe('settings defaults', () => {
  it('carry the texts and values reader.md names', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      postsingular: 'post',
      postplural: 'posts',
      logoutredirect: 'login',
      aboutpage: '/aboutus',
      topscoretext: 'Wellbeing Score',
      commentsheading: 'Comments',
      commentsbutton: 'Send',
      authmodalheading: 'Sign in to save this post',
      authmodalsigninbutton: 'Sign in',
      authmodalgooglebutton: 'Sign in with Google',
      recommendationheading: 'You might also like these',
    });
    expect(DEFAULT_SETTINGS.levels).toEqual([
      { title: 'Beginner', count: 0 },
      { title: 'Intermediate', count: 20 },
      { title: 'Advanced', count: 40 },
    ]);
  });
});

describe('mergeSettings', () => {
  it('keeps the defaults when the remote answer is not an object', () => {
    expect(mergeSettings(DEFAULT_SETTINGS, null)).toEqual(DEFAULT_SETTINGS);
    expect(mergeSettings(DEFAULT_SETTINGS, 'oops')).toEqual(DEFAULT_SETTINGS);
    expect(mergeSettings(DEFAULT_SETTINGS, [1, 2])).toEqual(DEFAULT_SETTINGS);
  });

  it('takes remote values over the defaults', () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, {
      sitetitle: 'Daily Calm',
      postsingular: 'reminder',
      postplural: 'reminders',
      buttoncolor: '#123456',
      googleauth: true,
      subscription: 'true',
      logoutredirect: 'feed',
    });
    expect(merged).toMatchObject({
      sitetitle: 'Daily Calm',
      postsingular: 'reminder',
      postplural: 'reminders',
      buttoncolor: '#123456',
      googleauth: true,
      subscription: true,
      logoutredirect: 'feed',
    });
    expect(merged.topscoretext).toBe('Wellbeing Score');
  });

  it('ignores empty strings, wrong types, unknown keys and unsafe CSS values', () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, {
      sitetitle: '   ',
      googleauth: 'yes',
      postplural: 42,
      logoutredirect: 'elsewhere',
      buttoncolor: 'red; background: url(x)',
      headingfont: '} body { display: none',
      somethingElse: 'x',
      commentsheading: null,
    });
    expect(merged).toEqual(DEFAULT_SETTINGS);
    expect(merged).not.toHaveProperty('somethingElse');
  });

  it('sorts levels by count, drops invalid entries and keeps an explicit empty list', () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, {
      levels: [
        { title: 'Expert', count: 100 },
        { title: 'Novice', count: '0' },
        { title: '', count: 5 },
        { title: 'Broken', count: -1 },
        'junk',
      ],
    });
    expect(merged.levels).toEqual([
      { title: 'Novice', count: 0 },
      { title: 'Expert', count: 100 },
    ]);
    expect(mergeSettings(DEFAULT_SETTINGS, { levels: [] }).levels).toEqual([]);
    expect(mergeSettings(DEFAULT_SETTINGS, { levels: 'none' }).levels).toEqual(DEFAULT_SETTINGS.levels);
  });

  it('does not change the defaults object', () => {
    const before = structuredClone(DEFAULT_SETTINGS);
    mergeSettings(DEFAULT_SETTINGS, { sitetitle: 'Other', levels: [{ title: 'A', count: 1 }] });
    expect(DEFAULT_SETTINGS).toEqual(before);
  });
});

describe('CSS variables', () => {
  it('maps colours and fonts to the custom properties', () => {
    const vars = cssVariables(
      mergeSettings(DEFAULT_SETTINGS, { buttoncolor: 'green', defaultfont: 'Poppins' }),
    );
    expect(vars['--color-button']).toBe('green');
    expect(vars['--font-body']).toBe(`Poppins, ${SYSTEM_FONT_STACK}`);
    expect(vars['--color-background']).toBe('#ffffff');
  });

  it('quotes family names with spaces and keeps full stacks', () => {
    expect(fontStack('Open Sans')).toBe(`"Open Sans", ${SYSTEM_FONT_STACK}`);
    expect(fontStack('Georgia, serif')).toBe('Georgia, serif');
    expect(fontStack('')).toBe(SYSTEM_FONT_STACK);
  });
});

describe('wording', () => {
  it('builds the feed tab labels from the post names', () => {
    expect(feedTabLabels(DEFAULT_SETTINGS)).toEqual({
      today: "Today's post",
      all: 'All posts',
      liked: 'Liked posts',
    });
    expect(feedTabLabels({ postsingular: 'nudge', postplural: 'nudges' }).all).toBe('All nudges');
  });

  it('sends signed-out readers to the login screen unless the feed is public', () => {
    expect(signOutDestination('login')).toBe('/login');
    expect(signOutDestination('feed')).toBe('/');
  });
});
