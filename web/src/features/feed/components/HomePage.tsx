import { useEffect, useRef } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { homeRedirect } from '../../auth/rules';
import { selectIsLogin } from '../../auth/selectors';
import { linkSignInRequested } from '../../auth/slice';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { selectSettings } from '../../settings/selectors';
import { feedTabLabels } from '../../settings/wording';
import { feedTabFor } from '../feedRules';
import { feedRequested, progressRequested } from '../slice';
import { FeedTabs } from './FeedTabs';
import { PostList } from './PostList';
import { WellbeingScore } from './WellbeingScore';

/** `/`: the home feed. A `uid` (e-mail link or Google's return) is spent first, then the reader lands on /?page=all. */
export function HomePage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const uid = params.get('uid');
  const tab = feedTabFor(params.get('page'), isLogin);
  const redirect = homeRedirect({
    isLogin,
    logoutRedirect: settings.logoutredirect,
    hasLinkToken: Boolean(uid),
  });
  const showFeed = !redirect && !uid;

  // A link token is spent once, even if this page renders again before the sign-in has moved on.
  const spentUid = useRef<string | null>(null);
  useEffect(() => {
    if (uid && spentUid.current !== uid) {
      spentUid.current = uid;
      dispatch(linkSignInRequested(uid));
    }
  }, [dispatch, uid]);

  useEffect(() => {
    if (showFeed) dispatch(feedRequested(tab));
  }, [dispatch, showFeed, tab]);

  useEffect(() => {
    if (showFeed && isLogin) dispatch(progressRequested());
  }, [dispatch, showFeed, isLogin]);

  if (redirect) return <Navigate to={redirect} replace />;

  const labels = feedTabLabels(settings);
  return (
    <NarrowLayout>
      <h1 className="visually-hidden">{uid ? 'Signing you in' : labels[tab]}</h1>
      {uid ? (
        <p className="muted feed-notice" role="status">
          Signing you in…
        </p>
      ) : (
        <>
          {isLogin && <FeedTabs current={tab} />}
          {isLogin && <WellbeingScore />}
          <PostList tab={tab} />
        </>
      )}
    </NarrowLayout>
  );
}
