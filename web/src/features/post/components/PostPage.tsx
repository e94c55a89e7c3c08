import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { safeImageUrl } from '../../../shared/safeUrl';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { CommentsSection } from '../../comments/components/CommentsSection';
import { selectFeed } from '../../feed/selectors';
import { topicsRequested } from '../../feed/slice';
import { RecommendationsCarousel } from '../../recommendations/components/RecommendationsCarousel';
import { selectSettings } from '../../settings/selectors';
import { SignInModal } from '../../signin-modal/components/SignInModal';
import { LoadingLine } from '../../ui/components/StatusLines';
import { backLinkText, bodyParagraphs, PREMIUM, postGate, type Role } from '../postRules';
import { readingTime } from '../readingTime';
import { selectPostState } from '../selectors';
import { postOpened } from '../slice';
import type { PostDetail } from '../types';
import '../post.css';
import { PostActions } from './PostActions';
import { PremiumGate } from './PremiumGate';

function PostImage({ src }: { src: string | undefined }) {
  const [failed, setFailed] = useState(false);
  const image = safeImageUrl(src);
  if (!image || failed) return null;
  return <img className="post__image" src={image} alt="" onError={() => setFailed(true)} />;
}

/** The post's topic (its name, once the topics are known) and its reading time (when the body is readable). */
function PostMeta({ topicId, text }: { topicId: string | undefined; text: string | undefined }) {
  const dispatch = useAppDispatch();
  const { topics, topicsStatus } = useAppSelector(selectFeed);
  useEffect(() => {
    if (topicsStatus === 'idle') dispatch(topicsRequested());
  }, [dispatch, topicsStatus]);
  const topic = topics.find((t) => t._id === topicId)?.topic;
  const minutes = readingTime(text);
  if (!topic && !minutes) return null;
  return (
    <p className="post__meta">
      {topic && <span className="post__topic">{topic}</span>}
      {topic && minutes && <span aria-hidden="true"> · </span>}
      {minutes && <span>{minutes}</span>}
    </p>
  );
}

function PostArticle({ post }: { post: PostDetail }) {
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  const gate = postGate(post, isLogin, (user?.role as Role | undefined) ?? null);
  const shownText = gate === 'open' ? post.body : post.preview;
  return (
    <article className="post" aria-labelledby="post-heading">
      <PostImage key={post._id} src={post.image} />
      <PostActions post={post} />
      {post.type === PREMIUM && <span className="badge badge--premium">Premium</span>}
      <h1 id="post-heading" className="post__heading">
        {post.heading}
      </h1>
      <PostMeta topicId={post.topic} text={gate === 'open' ? post.body : undefined} />
      <div className={`post__body${gate === 'open' ? '' : ' post__body--preview'}`}>
        {bodyParagraphs(shownText).map((paragraph, position) => (
          // Paragraphs have no ids; their order is their identity (the text is split once per post).
          <p key={position}>{paragraph}</p>
        ))}
      </div>
      {gate !== 'open' && <PremiumGate gate={gate} postId={post._id} />}
    </article>
  );
}

/** /post/{id} (reader.md §2 Post detail). */
export default function PostPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectSettings);
  const state = useAppSelector(selectPostState);
  const openedFor = useRef<string | null>(null);

  // Once per post: the query (uid, a) is read here and spent by the saga, which then drops it from the address.
  useEffect(() => {
    if (openedFor.current === id) return;
    openedFor.current = id;
    window.scrollTo(0, 0);
    dispatch(postOpened({ id, search: location.search }));
  }, [dispatch, id]);

  const post = state.id === id ? state.post : null;
  const failed = state.status === 'failed' && state.id === id;

  return (
    <div className="post-page">
      {!failed && (
        <Link to="/" className="back-link">
          {backLinkText(settings.postplural)}
        </Link>
      )}
      {(state.status === 'loading' || state.id !== id) && <LoadingLine label="Loading…" />}
      {failed && (
        <div className="post-error" role="alert">
          <h1 className="post-error__title">{state.failure}</h1>
          <div className="post-error__actions">
            {state.retryable && (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => dispatch(postOpened({ id, search: '' }))}
              >
                Retry
              </button>
            )}
            <Link to="/" className="button">
              {backLinkText(settings.postplural)}
            </Link>
          </div>
        </div>
      )}
      {state.status === 'loaded' && post && (
        <>
          <PostArticle post={post} />
          {settings.isCommentsVisible && (
            <CommentsSection templateId={post._id} postType={post.type} total={post.totalcomments} />
          )}
          {settings.recommendation && <RecommendationsCarousel templateId={post._id} />}
        </>
      )}
      <SignInModal />
    </div>
  );
}
