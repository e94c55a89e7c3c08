import { type FormEvent, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { hasNames } from '../../auth/rules';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';
import { signInModalOpened } from '../../signin-modal/slice';
import { LoadingLine, RetryLine } from '../../ui/components/StatusLines';
import {
  COMMENT_MAX_LENGTH,
  canComment,
  canSendComment,
  hasMoreComments,
  isOwnComment,
} from '../commentRules';
import { selectComments } from '../selectors';
import {
  commentSubmitted,
  commentsOpened,
  commentsRetried,
  draftChanged,
  moreCommentsRequested,
} from '../slice';
import '../comments.css';
import { CommentCounter } from './CommentCounter';
import { CommentItem } from './CommentItem';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { NameForm } from './NameForm';

function CommentForm() {
  const dispatch = useAppDispatch();
  const { commentsbutton } = useAppSelector(selectSettings);
  const { draft, adding, failure } = useAppSelector(selectComments);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSendComment(draft)) dispatch(commentSubmitted());
  };

  return (
    <form className="comment-form" onSubmit={submit}>
      <label htmlFor="comment-new" className="visually-hidden">
        Write a comment
      </label>
      <textarea
        id="comment-new"
        rows={3}
        placeholder="Write a comment…"
        maxLength={COMMENT_MAX_LENGTH}
        value={draft}
        aria-describedby="comment-new-counter"
        onChange={(event) => dispatch(draftChanged(event.target.value))}
      />
      <div className="comment-form__footer">
        <CommentCounter id="comment-new-counter" length={draft.length} />
        <button type="submit" className="button button--small" disabled={adding || !canSendComment(draft)}>
          {commentsbutton}
        </button>
      </div>
      {failure?.action === 'add' && (
        <RetryLine
          className="comments__failure"
          message={failure.message}
          disabled={adding}
          onRetry={() => dispatch(commentSubmitted())}
        />
      )}
    </form>
  );
}

/** What stands where the comment box would be: the box, the name form, or why the reader cannot comment. */
function Composer({ postType }: { postType: number }) {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);

  if (!isLogin || !user)
    return (
      <div className="comments__notice">
        <p>Sign in to join the conversation.</p>
        <button
          type="button"
          className="button button--small"
          onClick={() => dispatch(signInModalOpened('comment'))}
        >
          {settings.authmodalsigninbutton}
        </button>
      </div>
    );
  if (!canComment({ isLogin, commentsOn: settings.isCommentsVisible, postType, role: user.role }))
    return (
      <p className="comments__notice muted">
        Only premium readers can comment on premium {settings.postplural}.
      </p>
    );
  if (!hasNames(user)) return <NameForm user={user} />;
  return <CommentForm />;
}

/** reader.md §2 Comments: heading, the reader's box, the list (5, then 'Show more'), edit and delete for the author. */
export function CommentsSection({
  templateId,
  postType,
  total,
}: {
  templateId: string;
  postType: number;
  total: number | undefined;
}) {
  const dispatch = useAppDispatch();
  const { commentsheading } = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const userId = useAppSelector(selectUser)?._id;
  const state = useAppSelector(selectComments);

  // Listed again when the reader signs in or out: the server marks the signed-in reader's own comments.
  useEffect(() => {
    dispatch(commentsOpened(templateId));
  }, [dispatch, templateId, userId]);

  const more = hasMoreComments({ lastPageSize: state.lastPageSize, loaded: state.items.length, total });

  return (
    <section id="comments" className="comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="comments__heading" tabIndex={-1}>
        {commentsheading}
      </h2>
      <Composer postType={postType} />
      {state.status === 'loading' && <LoadingLine label="Loading comments…" size={28} />}
      {state.status === 'failed' && (
        <RetryLine
          className="comments__notice"
          message="Comments can't be loaded right now."
          onRetry={() => dispatch(commentsRetried(templateId))}
        />
      )}
      {state.status === 'loaded' && state.items.length === 0 && (
        <p className="comments__notice muted">No comments yet.</p>
      )}
      {state.items.length > 0 && (
        <ul className="comments__list">
          {state.items.map((comment) => (
            <CommentItem
              key={comment._id}
              comment={comment}
              own={isOwnComment(comment, isLogin)}
              editing={state.editingId === comment._id}
            />
          ))}
        </ul>
      )}
      {state.status === 'loaded' && more && (
        <button
          type="button"
          className="button button--secondary button--small comments__more"
          disabled={state.loadingMore}
          onClick={() => dispatch(moreCommentsRequested())}
        >
          {state.loadingMore ? 'Loading…' : 'Show more'}
        </button>
      )}
      <ConfirmDeleteDialog />
    </section>
  );
}
