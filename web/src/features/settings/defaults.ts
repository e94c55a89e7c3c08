import type { SiteSettings } from './types';

export const SYSTEM_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/**
 * The built-in settings, used until (and wherever) the remote settings say otherwise. Texts the spec names are
 * copied from reader.md; the rest are our choices (web/README.md).
 */
export const DEFAULT_SETTINGS: SiteSettings = {
  sitetitle: 'Nudge',
  loginheadline: 'Your daily nudge towards better wellbeing',
  loginpitch:
    'One short post a day on sleep, focus and calm, by e-mail or WhatsApp at the time you choose. Free to start; premium opens every post.',
  emailupdateheadline: 'Set up your daily reminder',
  logo: '',
  favicon: '',
  // Our choice: a built-in picture for the signed-out home (web/public), until an admin sets one.
  loginimage: '/login-illustration.svg',
  googleauth: false,
  backgroundcolor: '#ffffff',
  defaultfontcolor: '#1f2328',
  defaultfont: SYSTEM_FONT_STACK,
  headingcolor: '#111827',
  headingfont: SYSTEM_FONT_STACK,
  paragraphcolor: '#374151',
  paragraphfont: SYSTEM_FONT_STACK,
  // reader.md: the default button colour is red. This is a red dark enough for white text to pass WCAG AA
  // (6.5:1); pure #ff0000 gives 4:1, which fails for normal-size text.
  buttoncolor: '#b91c1c',
  buttonfontcolor: '#ffffff',
  inputbordercolor: '#6b7280',
  logoutredirect: 'login',
  postsingular: 'post',
  postplural: 'posts',
  aboutpage: '/aboutus',
  subscription: false,
  recommendation: true,
  isCommentsVisible: true,
  commentsheading: 'Comments',
  commentsbutton: 'Send',
  recommendationheading: 'You might also like these',
  bodypromptprefix: '',
  subjectspromptprefix: '',
  authmodalheading: 'Sign in to save this post',
  authmodalsigninbutton: 'Sign in',
  authmodalgooglebutton: 'Sign in with Google',
  topscoretext: 'Wellbeing Score',
  emailcheckin: true,
  levels: [
    { title: 'Beginner', count: 0 },
    { title: 'Intermediate', count: 20 },
    { title: 'Advanced', count: 40 },
  ],
};
