import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../../shared/http';
import { clearToken, readToken } from '../../../shared/storage';
import { DELETION_GOES, DELETION_STAYS, deleteMyAccount } from '../api';
import '../account-deletion.css';

/** "Delete my account" on the settings page: a dialog says what goes and what stays and asks for DELETE typed. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const inputId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => {
    setOpen(false);
    setTyped('');
    setError(null);
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteMyAccount(readToken());
      clearToken();
      window.location.assign('/login?deleted=1');
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <section className="delete-account" aria-labelledby={`${titleId}-section`}>
      <h2 id={`${titleId}-section`} className="delete-account__title">
        Delete my account
      </h2>
      <p className="delete-account__text">This cannot be undone.</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
        Delete my account
      </button>
      <dialog
        ref={ref}
        className="delete-dialog"
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        <p id={titleId} className="delete-dialog__title">
          Delete your account for good?
        </p>
        <p className="delete-dialog__detail">
          <strong>What goes:</strong> {DELETION_GOES}
        </p>
        <p className="delete-dialog__detail">
          <strong>What stays:</strong> {DELETION_STAYS}
        </p>
        <div className="field">
          <label htmlFor={inputId}>Type DELETE to confirm</label>
          <input
            id={inputId}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        {error && (
          <p role="alert" className="delete-account__error">
            {error}
          </p>
        )}
        <div className="delete-dialog__actions">
          <button type="button" className="button button--secondary" onClick={close}>
            Keep my account
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={typed !== 'DELETE' || busy}
            onClick={() => void confirm()}
          >
            {busy ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
      </dialog>
    </section>
  );
}
