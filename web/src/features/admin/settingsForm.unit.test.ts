import { describe, expect, it } from 'vitest';
import { changedSettings, pickerValue, SETTINGS_GROUPS } from './settingsForm';
import type { ServerSiteSettings } from './types';

describe('site settings form', () => {
  it('has the groups of admin.md §2 in order, then the Terms and Privacy texts', () => {
    expect(SETTINGS_GROUPS.map((g) => g.title)).toEqual([
      'Text',
      'Content',
      'Color',
      'Font',
      'Image',
      'Url',
      'ID Credentials',
      'Other',
      'Terms and Privacy',
    ]);
  });

  it('sends only changed fields, levels included', () => {
    const loaded = { sitetitle: 'Nudge', buttoncolor: '#000000', levels: [{ title: 'Beginner', count: 0 }] };
    const edited = { ...loaded, buttoncolor: '#ff0000', levels: [{ title: 'Beginner', count: 5 }] };
    expect(
      changedSettings(loaded as unknown as ServerSiteSettings, edited as unknown as ServerSiteSettings),
    ).toEqual({
      buttoncolor: '#ff0000',
      levels: [{ title: 'Beginner', count: 5 }],
    });
  });

  it('gives the colour picker a #rrggbb value, black otherwise', () => {
    expect(pickerValue('#12ab34')).toBe('#12ab34');
    expect(pickerValue('navy')).toBe('#000000');
  });
});
