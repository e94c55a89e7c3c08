// The browser tab's title for each reader page (pure): '{section} | {site title}'. Every route has one, the 404 page
// and a post that failed to load included, so tabs and history entries are told apart.
const SECTIONS: Record<string, string> = {
  '/login': 'Sign in',
  '/register': 'Sign in',
  '/setting': 'Settings',
  '/aboutus': 'About Us',
  '/checkin': 'Check-in',
  '/upgrade': 'Premium',
  '/bilinghistory': 'Payment History',
  '/payment-success': 'Payment Successful',
  '/payment-failed': 'Payment Failed',
  '/dashboard': 'Dashboard',
};

export const NOT_FOUND_TITLE = 'Page not found';
export const POST_NOT_FOUND_TITLE = 'Post not found';

export interface TitleInputs {
  pathname: string;
  siteTitle: string;
  /** The home feed's tab label for the current tab. */
  feedTabLabel: string;
  /** The post page's state: its id, and its heading once loaded or its error view's line ('' while none). */
  post: { id: string | null; heading: string | null; failure: string | null };
}

/** '{section or post heading} | {site title}'; the site title alone while a post is still loading. */
export function pageTitle(section: string | null, siteTitle: string): string {
  return section ? `${section} | ${siteTitle}` : siteTitle;
}

/** The section shown in the title for a path. */
export function sectionFor({ pathname, feedTabLabel, post }: Omit<TitleInputs, 'siteTitle'>): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') return feedTabLabel;
  if (SECTIONS[path]) return SECTIONS[path];
  const postId = /^\/post\/([^/]+)$/.exec(path)?.[1];
  if (postId !== undefined) {
    if (post.id !== decodeURIComponent(postId)) return null;
    if (post.failure !== null) return post.failure.replace(/[.!]+$/, '') || POST_NOT_FOUND_TITLE;
    return post.heading;
  }
  if (/^\/unsubscribe\/[^/]+$/.test(path)) return 'Notification preference';
  return NOT_FOUND_TITLE;
}

export const titleFor = (inputs: TitleInputs): string => pageTitle(sectionFor(inputs), inputs.siteTitle);
