import { Spinner } from './Spinner';

/** Shown until the settings and the stored token have been checked at start. */
export function FullScreenSpinner() {
  return (
    <div className="full-screen-spinner" role="status">
      <Spinner size={48} />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
