import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { signOutRequested } from '../../auth/slice';
import { selectSettings } from '../../settings/selectors';
import { AboutLink } from './AboutLink';
import { Avatar } from './Avatar';

/** The avatar button and its menu: About Us, Settings, Subscription (when on) and Sign Out. */
export function UserMenu({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { subscription } = useAppSelector(selectSettings);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <div className="user-menu" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-label={`Account menu for ${email}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <Avatar email={email} />
      </button>
      {open && (
        <div id={menuId} className="user-menu__panel">
          <p className="user-menu__email">{email}</p>
          <ul>
            <li>
              <AboutLink className="user-menu__item" onClick={close} />
            </li>
            <li>
              <Link to="/setting" className="user-menu__item" onClick={close}>
                Settings
              </Link>
            </li>
            {subscription && (
              <li>
                <Link to="/upgrade" className="user-menu__item" onClick={close}>
                  Subscription
                </Link>
              </li>
            )}
            <li>
              <button
                type="button"
                className="user-menu__item"
                onClick={() => {
                  close();
                  dispatch(signOutRequested());
                }}
              >
                Sign Out
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
