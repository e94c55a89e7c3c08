import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin } from '../../auth/selectors';
import { feedTabFor } from '../../feed/feedRules';
import { selectPostState } from '../../post/selectors';
import { selectSettings } from '../../settings/selectors';
import { feedTabLabels } from '../../settings/wording';

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

/** The browser tab's title: '{section or post heading} | {site title}', following the page. */
export function pageTitle(section: string | null, siteTitle: string): string {
  return section ? `${section} | ${siteTitle}` : siteTitle;
}

/** Keeps document.title on the page shown: the post's heading on /post/{id}, else the section's name. */
export function PageTitle() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const post = useAppSelector(selectPostState);
  let section: string | null = SECTIONS[pathname] ?? null;
  if (pathname === '/') section = feedTabLabels(settings)[feedTabFor(params.get('page'), isLogin)];
  else if (pathname.startsWith('/post/'))
    section =
      post.post && pathname === `/post/${encodeURIComponent(post.post._id)}` ? post.post.heading : null;
  else if (pathname.startsWith('/unsubscribe/')) section = 'Notification preference';
  const title = pageTitle(section, settings.sitetitle);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
