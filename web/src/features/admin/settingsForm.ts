import type { ServerSiteSettings } from './types';

export type SettingsField = {
  key: keyof ServerSiteSettings;
  label: string;
  kind: 'text' | 'long' | 'colour' | 'flag' | 'days';
};

const text = (key: keyof ServerSiteSettings, label: string): SettingsField => ({ key, label, kind: 'text' });

/** admin.md §2 and §3: the Site Settings form's groups, in order ('Other' also holds the levels manager). */
export const SETTINGS_GROUPS: Array<{ title: string; fields: SettingsField[] }> = [
  {
    title: 'Text',
    fields: [
      text('sitetitle', 'Site Title'),
      text('footersitetitle', 'Footer Site Title'),
      text('subjectprefix', 'Subject Prefix'),
      text('postsingular', 'Post Singular'),
      text('postplural', 'Post Plural'),
      text('emailupdateheadline', 'Email Update Headline'),
      text('loginheadline', 'Login Headline'),
      text('loginpitch', 'Login Pitch (signed-out home)'),
      text('commentsheading', 'Comments Heading'),
      text('commentsbutton', 'Comments Button'),
      text('recommendationheading', 'Recommendation Heading'),
      text('authmodalheading', 'Auth Modal Heading'),
      text('authmodalsigninbutton', 'Auth Modal Sign-in Button'),
      text('authmodalgooglebutton', 'Auth Modal Google Button'),
      text('topscoretext', 'Top Score Text'),
    ],
  },
  {
    title: 'Content',
    fields: [
      { key: 'bodypromptprefix', label: 'Body Prompt Prefix', kind: 'long' },
      { key: 'subjectspromptprefix', label: 'Subjects Prompt Prefix', kind: 'long' },
    ],
  },
  {
    title: 'Color',
    fields: (
      [
        ['headingcolor', 'Heading Color'],
        ['paragraphcolor', 'Paragraph Color'],
        ['buttonfontcolor', 'Button Font Color'],
        ['backgroundcolor', 'Background Color'],
        ['buttoncolor', 'Button Color'],
        ['defaultfontcolor', 'Default Font Color'],
        ['inputbordercolor', 'Input Border Color'],
      ] as const
    ).map(([key, label]) => ({ key, label, kind: 'colour' as const })),
  },
  {
    title: 'Font',
    fields: [
      text('headingfont', 'Heading Font'),
      text('paragraphfont', 'Paragraph Font'),
      text('defaultfont', 'Default Font'),
    ],
  },
  {
    title: 'Image',
    fields: [
      text('logo', 'Logo'),
      text('emaillogo', 'Email Logo'),
      text('favicon', 'Favicon'),
      text('loginimage', 'Login Image'),
    ],
  },
  {
    title: 'Url',
    fields: [
      text('frontendurl', 'Frontend Url'),
      text('frontendshorturl', 'Frontend Short Url'),
      text('instagramurl', 'Instagram Url'),
      text('aboutpage', 'About Page'),
    ],
  },
  {
    title: 'ID Credentials',
    fields: [
      text('trackingid', 'Tracking Id'),
      text('clarityid', 'Clarity Id'),
      text('posthoghost', 'PostHog Host'),
      text('posthogkey', 'PostHog Key'),
    ],
  },
  {
    title: 'Other',
    fields: (
      [
        ['googleauth', 'Google Auth'],
        ['subscription', 'Subscription'],
        ['recommendation', 'Recommendation'],
        ['emailrecommendation', 'Email Recommendation'],
        ['emailcheckin', 'Email Check-In'],
        ['emailfullpost', 'Email Full Post'],
        ['isCommentsVisible', 'Comments Visible'],
      ] as const
    )
      .map(([key, label]): SettingsField => ({ key, label, kind: 'flag' }))
      // Our setting: how long reporting keeps the web's analytics events (page visits, clicks).
      .concat({ key: 'webeventretentiondays', label: 'Web Event Retention (days)', kind: 'days' }),
  },
  {
    // Our settings, after the contract's groups: the Terms and Privacy page (/terms), linked from the sign-in screen and every e-mail.
    title: 'Terms and Privacy',
    fields: [
      { key: 'termstext', label: 'Terms Text', kind: 'long' },
      { key: 'privacytext', label: 'Privacy Text', kind: 'long' },
    ],
  },
];

/** The fields the admin changed: the save sends only these (unchanged blanks would fail the URL and font rules). */
export function changedSettings(
  loaded: ServerSiteSettings,
  edited: ServerSiteSettings,
): Partial<ServerSiteSettings> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(edited) as Array<keyof ServerSiteSettings>)
    if (JSON.stringify(loaded[key]) !== JSON.stringify(edited[key])) changes[key] = edited[key];
  return changes as Partial<ServerSiteSettings>;
}

/** The colour picker needs #rrggbb; a named or short colour shows as black there (admin.md §9: default black). */
export const pickerValue = (colour: string): string => (/^#[0-9a-f]{6}$/i.test(colour) ? colour : '#000000');
