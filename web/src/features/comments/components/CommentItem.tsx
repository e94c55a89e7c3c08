import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Avatar } from '../../layout/components/Avatar';
import { RetryLine } from '../../ui/components/StatusLines';
import { COMMENT_MAX_LENGTH, canSendComment, commentAuthorName, formatCommentDate } from '../commentRules';
import { selectComments } from '../selectors';
import { deleteAsked, editCancelled, editDraftChanged, editStarted, editSubmitted } from '../slice';
import type { PostComment } from '../types';
import { CommentCounter } from './CommentCounter';

/** The owner's menu: Edit and Delete behind a small disclosure button. */
function OwnerMenu({ comment }: { comment: PostComment }) {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  /** Closes the menu and puts focus back on its button, so a dialog it opens returns focus there too. */
  const choose = (action: () => void) => {
    setOpen(false);
    trigger.current?.focus();
    action();
  };

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        trigger.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div className="comment__menu" ref={wrapper}>
      <button
        ref={trigger}
        type="button"
        className="comment__menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label="Comment options"
        onClick={() => setOpen(!open)}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="5" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="19" r="2" fill="currentColor" />
        </svg>
      </button>
      <ul id={panelId} className="comment__menu-panel" hidden={!open}>
        <li>
          <button type="button" onClick={() => choose(() => dispatch(editStarted(comment._id)))}>
            Edit
          </button>
        </li>
        <li>
          <button type="button" onClick={() => choose(() => dispatch(deleteAsked(comment._id)))}>
            Delete
          </button>
        </li>
      </ul>
    </div>
  );
}

function EditForm() {
  const dispatch = useAppDispatch();
  const { editDraft, savingEdit, failure } = useAppSelector(selectComments);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => area.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSendComment(editDraft)) dispatch(editSubmitted());
  };

  return (
    <form className="comment__edit" onSubmit={submit}>
      <label htmlFor="comment-edit" className="visually-hidden">
        Edit your comment
      </label>
      <textarea
        id="comment-edit"
        ref={area}
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        value={editDraft}
        onChange={(event) => dispatch(editDraftChanged(event.target.value))}
      />
      <div className="comment-form__footer">
        <CommentCounter length={editDraft.length} />
        <div className="comment-form__actions">
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => dispatch(editCancelled())}
          >
            Cancel
          </button>
          <button
            type="submit"
            className="button button--small"
            disabled={savingEdit || !canSendComment(editDraft)}
          >
            Update
          </button>
        </div>
      </div>
      {failure?.action === 'edit' && (
        <RetryLine
          className="comments__failure"
          message={failure.message}
          disabled={savingEdit}
          onRetry={() => dispatch(editSubmitted())}
        />
      )}
    </form>
  );
}

export function CommentItem({
  comment,
  own,
  editing,
}: {
  comment: PostComment;
  own: boolean;
  editing: boolean;
}) {
  const date = formatCommentDate(comment.createdAt);
  return (
    <li className="comment">
      <Avatar email={commentAuthorName(comment.userDetails)} size={36} />
      <div className="comment__main">
        <div className="comment__head">
          <span className="comment__author">{commentAuthorName(comment.userDetails)}</span>
          {date && (
            <time className="comment__date" dateTime={comment.createdAt}>
              {date}
            </time>
          )}
          {own && !editing && <OwnerMenu comment={comment} />}
        </div>
        {editing ? <EditForm /> : <p className="comment__message">{comment.message}</p>}
      </div>
    </li>
  );
}
