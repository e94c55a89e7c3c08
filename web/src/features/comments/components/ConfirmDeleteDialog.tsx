import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ModalDialog } from '../../signin-modal/components/ModalDialog';
import { selectComments } from '../selectors';
import { deleteConfirmed, deleteDismissed } from '../slice';

/** reader.md §2: delete asks first (Cancel / Delete). */
export function ConfirmDeleteDialog() {
  const dispatch = useAppDispatch();
  const { confirmDeleteId, deleting, failure } = useAppSelector(selectComments);
  const failed = failure?.action === 'delete' ? failure.message : null;
  const dismiss = () => {
    if (!deleting) dispatch(deleteDismissed());
  };
  return (
    <ModalDialog open={confirmDeleteId !== null} onClose={dismiss} labelledBy="delete-comment-heading">
      <h2 id="delete-comment-heading" className="modal__title">
        Delete this comment?
      </h2>
      <p>This cannot be undone.</p>
      {failed && (
        <p role="alert" className="comments__failure">
          {failed}
        </p>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={dismiss} disabled={deleting}>
          Cancel
        </button>
        <button
          type="button"
          className="button"
          onClick={() => dispatch(deleteConfirmed())}
          disabled={deleting}
        >
          {failed ? 'Retry' : 'Delete'}
        </button>
      </div>
    </ModalDialog>
  );
}
