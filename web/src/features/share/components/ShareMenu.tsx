import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { copyText } from '../clipboard';
import { COPY_FAILED, emailShareHref, LINK_COPIED, whatsAppShareHref } from '../shareLinks';
import '../share.css';

export interface ShareMenuProps {
  /** The full address to share. */
  url: string;
  /** The post's heading: e-mail subject and the first line of the shared text. */
  title: string;
  /** Opens the menu (e.g. the post page for ?a=share); the reader can still close it. */
  open?: boolean;
  /** Told whenever the menu opens or closes. */
  onOpenChange?: (open: boolean) => void;
  /** Where the list opens: below the button (default) or above it (at the foot of a card). */
  placement?: 'down' | 'up';
  className?: string;
}

function ShareIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M18 16.1c-.8 0-1.5.3-2 .8l-7.1-4.2c.1-.2.1-.5.1-.7s0-.5-.1-.7l7-4.1c.5.5 1.3.8 2.1.8 1.7 0 3-1.3 3-3s-1.3-3-3-3-3 1.3-3 3c0 .2 0 .5.1.7l-7 4.1c-.5-.5-1.3-.8-2.1-.8-1.7 0-3 1.3-3 3s1.3 3 3 3c.8 0 1.5-.3 2.1-.8l7.1 4.2c-.1.2-.1.4-.1.6 0 1.6 1.3 2.9 2.9 2.9s2.9-1.3 2.9-2.9-1.3-2.9-2.9-2.9z"
      />
    </svg>
  );
}

/** A touch device whose browser has the system share sheet. */
const systemShareAvailable = (): boolean =>
  typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;

/**
 * reader.md §2 share menu: Copy link, Email (mailto:), Whatsapp (wa.me). A disclosure button with a short list;
 * arrow keys, Home and End move between the items; Escape or a click elsewhere closes it, and focus goes back to
 * the button after Escape. On phones the button opens the system share sheet where there is one.
 */
export function ShareMenu({
  url,
  title,
  open = false,
  onOpenChange,
  placement = 'down',
  className,
}: ShareMenuProps) {
  const [isOpen, setIsOpen] = useState(open);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const firstItem = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const change = useCallback(
    (next: boolean) => {
      setIsOpen(next);
      onOpenChange?.(next);
    },
    [onOpenChange],
  );

  // Opened from outside (a=share): open and move focus into the menu.
  useEffect(() => {
    if (open) {
      setIsOpen(true);
      firstItem.current?.focus();
    }
  }, [open]);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(event.target as Node)) change(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        change(false);
        button.current?.focus();
        return;
      }
      // Arrow keys, Home and End move between the items (wrapping), from the button or from an item.
      const items = Array.from(wrapper.current?.querySelectorAll<HTMLElement>('.share__item') ?? []);
      const at = items.indexOf(document.activeElement as HTMLElement);
      const inside = at !== -1 || document.activeElement === button.current;
      if (!inside || items.length === 0) return;
      const next =
        event.key === 'ArrowDown'
          ? (at + 1) % items.length
          : event.key === 'ArrowUp'
            ? (at <= 0 ? items.length : at) - 1
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? items.length - 1
                : null;
      if (next === null) return;
      event.preventDefault();
      items[next]?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen, change]);

  const copy = async () => {
    const copied = await copyText(url);
    if (copied) notifySuccess(LINK_COPIED, 'link-copied');
    else notifyError(COPY_FAILED, 'link-copy-failed');
    change(false);
  };

  // On a phone the system share sheet (navigator.share) replaces the menu; a cancelled sheet does nothing, and a
  // sheet that cannot open falls back to the menu.
  const toggle = async () => {
    if (!isOpen && systemShareAvailable()) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    change(!isOpen);
  };

  return (
    <div className={['share', `share--${placement}`, className].filter(Boolean).join(' ')} ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="share__button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={toggle}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !isOpen) {
            event.preventDefault();
            change(true);
            // Only if nothing moved the focus meanwhile (the menu's own arrow-key handler may already have, and a
            // late timer must not pull it back from an item the reader has since reached).
            window.setTimeout(() => {
              if (document.activeElement === button.current) firstItem.current?.focus();
            }, 0);
          }
        }}
      >
        <ShareIcon />
        <span>Share</span>
        {title && <span className="visually-hidden">: {title}</span>}
      </button>
      <ul id={panelId} className="share__panel" hidden={!isOpen}>
        <li>
          <button ref={firstItem} type="button" className="share__item" onClick={copy}>
            Copy link
          </button>
        </li>
        <li>
          <a className="share__item" href={emailShareHref(url, title)} onClick={() => change(false)}>
            Email
          </a>
        </li>
        <li>
          <a
            className="share__item"
            href={whatsAppShareHref(url, title)}
            target="_blank"
            rel="noopener noreferrer"
            onClick={() => change(false)}
          >
            Whatsapp<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
