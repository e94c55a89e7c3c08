import type { MouseEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectIsLogin } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';
import { ShareMenu } from '../../share/components/ShareMenu';
import { postUrl } from '../../share/shareLinks';
import { selectPostState } from '../selectors';
import { commentLinkClicked, likeControlClicked, shareMenuClosed } from '../slice';
import type { PostDetail } from '../types';

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.1 3.4 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.6 0 5.5 3.6 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z"
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function CommentIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 5.5h16v10.5H9.5L5 20v-4H4z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Like, comment count (to #comments) and share. Counts only for signed-in readers (reader.md §6). */
export function PostActions({ post }: { post: PostDetail }) {
  const dispatch = useAppDispatch();
  const isLogin = useAppSelector(selectIsLogin);
  const settings = useAppSelector(selectSettings);
  const { shareOpen } = useAppSelector(selectPostState);
  const liked = isLogin && post.like === true;
  const likes = post.totallikes ?? 0;
  const comments = post.totalcomments ?? 0;

  const toComments = (event: MouseEvent<HTMLAnchorElement>) => {
    dispatch(commentLinkClicked(post._id));
    const target = document.getElementById('comments');
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView({ behavior: 'smooth', block: 'start' });
    document.getElementById('comments-heading')?.focus({ preventScroll: true });
  };

  return (
    <div className="post-actions">
      <button
        type="button"
        className={`post-action${liked ? ' post-action--liked' : ''}`}
        aria-pressed={liked}
        onClick={() => dispatch(likeControlClicked(post._id))}
      >
        <HeartIcon filled={liked} />
        {isLogin ? (
          <>
            <span aria-hidden="true">{likes}</span>
            <span className="visually-hidden">{`Like, ${likes} ${likes === 1 ? 'like' : 'likes'}`}</span>
          </>
        ) : (
          <span className="visually-hidden">Like</span>
        )}
      </button>
      {settings.isCommentsVisible && (
        // biome-ignore lint/a11y/useValidAnchor: reader.md asks for a link to #comments; the click also logs the event
        <a className="post-action" href="#comments" onClick={toComments}>
          <CommentIcon />
          {isLogin ? (
            <>
              <span aria-hidden="true">{comments}</span>
              <span className="visually-hidden">{`${comments} ${comments === 1 ? 'comment' : 'comments'}`}</span>
            </>
          ) : (
            <span className="visually-hidden">Comments</span>
          )}
        </a>
      )}
      <ShareMenu
        className="post-actions__share"
        url={postUrl(window.location.origin, post._id)}
        title={post.heading}
        open={shareOpen}
        onOpenChange={(open) => {
          if (!open) dispatch(shareMenuClosed());
        }}
      />
    </div>
  );
}
