import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin } from '../../auth/selectors';
import { feedTabFor } from '../../feed/feedRules';
import { selectPostState } from '../../post/selectors';
import { selectSettings } from '../../settings/selectors';
import { feedTabLabels } from '../../settings/wording';
import { titleFor } from '../pageTitle';

/** Keeps document.title on the page shown (see pageTitle.ts): the post's heading, the section's name, or 404. */
export function PageTitle() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const post = useAppSelector(selectPostState);
  const title = titleFor({
    pathname,
    siteTitle: settings.sitetitle,
    feedTabLabel: feedTabLabels(settings)[feedTabFor(params.get('page'), isLogin)],
    post: {
      id: post.id,
      heading: post.post?.heading ?? null,
      failure: post.status === 'failed' ? post.failure : null,
    },
  });
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
