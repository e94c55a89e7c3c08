import { useEffect, useId, useRef } from 'react';

/** A modal yes/no question on the native <dialog> (focus kept inside, Escape answers No). */
export function ConfirmDialog({
  open,
  message,
  detail,
  onYes,
  onNo,
}: {
  open: boolean;
  message: string;
  /** What answering Yes will do, under the question. */
  detail?: string;
  onYes: () => void;
  onNo: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const messageId = useId();
  const detailId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={messageId}
      aria-describedby={detail ? detailId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onNo();
      }}
    >
      <p id={messageId} className="confirm-dialog__message">
        {message}
      </p>
      {detail && (
        <p id={detailId} className="confirm-dialog__detail">
          {detail}
        </p>
      )}
      <div className="confirm-dialog__actions">
        <button type="button" className="button button--secondary" onClick={onNo}>
          No
        </button>
        <button type="button" className="button" onClick={onYes}>
          Yes
        </button>
      </div>
    </dialog>
  );
}
