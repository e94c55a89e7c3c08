import { type ReactNode, useEffect, useRef } from 'react';
import '../signin-modal.css';

/**
 * A modal dialog on the native <dialog>: focus is kept inside, Escape and a click on the backdrop call `onClose`,
 * and focus goes back where it was when it closes. The content is only rendered while open, so forms start fresh.
 */
export function ModalDialog({
  open,
  onClose,
  labelledBy,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  className?: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      return () => {
        if (element.open) element.close();
        returnFocus?.focus();
      };
    }
    return undefined;
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; Escape (onCancel) is the keyboard way
    <dialog
      ref={dialog}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
    >
      {open && <div className="modal__content">{children}</div>}
    </dialog>
  );
}
