export interface Level {
  title: string;
  count: number;
}

/** Where signed-out visitors of / go, and where Sign Out leads: the feed, or the login screen. */
export type LogoutRedirect = 'feed' | 'login';

/** The site settings (reader.md §3), every field resolved: remote values merged over the built-in defaults. */
export interface SiteSettings {
  sitetitle: string;
  loginheadline: string;
  /** What the service is, on the signed-out home under the headline (our addition). */
  loginpitch: string;
  emailupdateheadline: string;
  /** Image URLs; '' means none. */
  logo: string;
  favicon: string;
  loginimage: string;
  googleauth: boolean;
  backgroundcolor: string;
  defaultfontcolor: string;
  defaultfont: string;
  headingcolor: string;
  headingfont: string;
  paragraphcolor: string;
  paragraphfont: string;
  buttoncolor: string;
  buttonfontcolor: string;
  inputbordercolor: string;
  logoutredirect: LogoutRedirect;
  postsingular: string;
  postplural: string;
  aboutpage: string;
  subscription: boolean;
  recommendation: boolean;
  isCommentsVisible: boolean;
  commentsheading: string;
  commentsbutton: string;
  recommendationheading: string;
  bodypromptprefix: string;
  subjectspromptprefix: string;
  authmodalheading: string;
  authmodalsigninbutton: string;
  authmodalgooglebutton: string;
  topscoretext: string;
  /** Whether reminder e-mails carry a check-in question (the wellbeing box says when the first one comes). */
  emailcheckin: boolean;
  /** Sorted by count, ascending. */
  levels: Level[];
}
