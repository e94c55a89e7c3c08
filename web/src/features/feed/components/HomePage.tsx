import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { homeRedirect } from '../../auth/rules';
import { selectIsLogin } from '../../auth/selectors';
import { linkSignInRequested } from '../../auth/slice';
import { ReadingHistory } from '../../history/components/ReadingHistory';
import { historyRequested } from '../../history/slice';
import { NarrowLayout } from '../../layout/components/NarrowLayout';
import { LevelsWidget } from '../../levels/components/LevelsWidget';
import { selectSettings } from '../../settings/selectors';
import { feedTabLabels } from '../../settings/wording';
import { isContinueReading } from '../continueReading';
import { feedTabFor } from '../feedRules';
import { selectFeed } from '../selectors';
import {
  continueReadingArrived,
  feedRequested,
  progressRequested,
  topicSelected,
  topicsRequested,
} from '../slice';
import { useTopicParam } from '../topicParam';
import { FeedControls } from './FeedControls';
import { FeedTabs } from './FeedTabs';
import { PostList } from './PostList';
import { ProgressSummary } from './ProgressSummary';
import { TopicChips } from './TopicChips';
import { WellbeingScore } from './WellbeingScore';
import '../feed.css';

/** `/`: the home feed. A `uid` (e-mail link or Google's return) is spent first, then the reader lands on /?page=all. */
export function HomePage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const uid = params.get('uid');
  const event = params.get('event');
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

  // Arrival from a 'continue reading' e-mail: logged once per visit (after the link's sign-in, if it has one).
  const loggedArrival = useRef(false);
  useEffect(() => {
    if (isContinueReading(event) && !loggedArrival.current) {
      loggedArrival.current = true;
      dispatch(
        continueReadingArrived({ path: pathname, url: window.location.href, signingIn: Boolean(uid) }),
      );
    }
  }, [dispatch, event, pathname, uid]);

  // The topic filter follows the URL (declared first: the tab's load below then starts with the right topic).
  const [topicId] = useTopicParam();
  const storedTopic = useAppSelector(selectFeed).topicId;
  useEffect(() => {
    if (showFeed && topicId !== storedTopic) dispatch(topicSelected(topicId));
  }, [dispatch, showFeed, topicId, storedTopic]);

  useEffect(() => {
    if (showFeed) dispatch(feedRequested(tab));
  }, [dispatch, showFeed, tab]);

  useEffect(() => {
    if (showFeed && tab === 'all') dispatch(topicsRequested());
  }, [dispatch, showFeed, tab]);

  useEffect(() => {
    if (showFeed && isLogin) {
      dispatch(progressRequested());
      dispatch(historyRequested());
    }
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
          {isLogin ? (
            <ProgressSummary>
              <WellbeingScore />
              <ReadingHistory aside={<LevelsWidget />} />
              <FeedControls />
            </ProgressSummary>
          ) : (
            <FeedControls />
          )}
          {tab === 'all' && <TopicChips />}
          <PostList tab={tab} />
        </>
      )}
    </NarrowLayout>
  );
}
