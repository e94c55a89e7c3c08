import {
  ContentEvents,
  eventData,
  type SiteSettings,
  type SiteSettingsInput,
  WEB_EVENT_RETENTION_DAYS_DEFAULT,
} from '@nudge/contracts';
import type { DecidedEvent, Decider } from '@nudge/platform';

const SYSTEM_FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/**
 * The defaults fetch fills in. Where the web app has a built-in default (web/src/features/settings/defaults.ts)
 * this is the same value (a test compares them); the fields only admin.md names are our choices.
 */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  sitetitle: 'Nudge',
  footersitetitle: 'Nudge',
  subjectprefix: '',
  postsingular: 'post',
  postplural: 'posts',
  emailupdateheadline: 'Set up your daily reminder',
  loginheadline: 'Your daily nudge towards better wellbeing',
  loginpitch:
    'One short post a day on sleep, focus and calm, by e-mail or WhatsApp at the time you choose. Free to start; premium opens every post.',
  commentsheading: 'Comments',
  commentsbutton: 'Send',
  recommendationheading: 'You might also like these',
  authmodalheading: 'Sign in to save this post',
  authmodalsigninbutton: 'Sign in',
  authmodalgooglebutton: 'Sign in with Google',
  topscoretext: 'Wellbeing Score',
  bodypromptprefix: '',
  subjectspromptprefix: '',
  headingcolor: '#111827',
  paragraphcolor: '#374151',
  buttonfontcolor: '#ffffff',
  backgroundcolor: '#ffffff',
  // reader.md: red by default; this red passes WCAG AA with white text (the web app's choice).
  buttoncolor: '#b91c1c',
  defaultfontcolor: '#1f2328',
  inputbordercolor: '#6b7280',
  headingfont: SYSTEM_FONT_STACK,
  paragraphfont: SYSTEM_FONT_STACK,
  defaultfont: SYSTEM_FONT_STACK,
  logo: '',
  emaillogo: '',
  favicon: '',
  // Our choice: a built-in picture for the signed-out home (web/public), until an admin sets one.
  loginimage: '/login-illustration.svg',
  frontendurl: '',
  frontendshorturl: '',
  instagramurl: '',
  aboutpage: '/aboutus',
  trackingid: '',
  clarityid: '',
  posthoghost: '',
  posthogkey: '',
  logoutredirect: 'login',
  googleauth: false,
  subscription: false,
  recommendation: true,
  emailrecommendation: true,
  emailcheckin: true,
  emailfullpost: false,
  isCommentsVisible: true,
  levels: [
    { title: 'Beginner', count: 0 },
    { title: 'Intermediate', count: 20 },
    { title: 'Advanced', count: 40 },
  ],
  webeventretentiondays: WEB_EVENT_RETENTION_DAYS_DEFAULT,
};

export type StoredSettings = Partial<SiteSettings>;

export const SETTINGS_STREAM = 'sitesettings';

/** Stored values over the defaults; keys that are not settings are ignored. */
export function withDefaults(stored: StoredSettings): SiteSettings {
  const merged: Record<string, unknown> = { ...DEFAULT_SITE_SETTINGS };
  for (const key of Object.keys(DEFAULT_SITE_SETTINGS)) {
    const value = (stored as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) merged[key] = value;
  }
  return merged as SiteSettings;
}

/** The stored object after the change: given fields replace, null removes (back to the default). */
export function applySettingsChanges(stored: StoredSettings, changes: SiteSettingsInput): StoredSettings {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as StoredSettings;
}

export function decideSettingsUpdate(stored: StoredSettings, changes: SiteSettingsInput): DecidedEvent[] {
  const next = applySettingsChanges(stored, changes);
  if (JSON.stringify(sortedKeys(next)) === JSON.stringify(sortedKeys(stored))) return [];
  return [{ type: ContentEvents.SiteSettingsUpdated.type, data: { settings: next } }];
}

const sortedKeys = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );

/** The settings stream folds to the stored object (without defaults); each update carries the whole object. */
export const settingsDecider: Decider<StoredSettings, SiteSettingsInput> = {
  initialState: {},
  evolve: (stored, event) =>
    event.type === ContentEvents.SiteSettingsUpdated.type
      ? (eventData(ContentEvents.SiteSettingsUpdated, event).settings as StoredSettings)
      : stored,
  decide: (changes, stored) => decideSettingsUpdate(stored, changes),
};
