import { useAppSelector } from '../../../app/hooks';
import { selectIsBlockingOperation } from '../selectors';
import { Spinner } from './Spinner';

/** Covers the page while an operation that must not be repeated (sign-in, saving) is under way. */
export function LoadingOverlay() {
  const busy = useAppSelector(selectIsBlockingOperation);
  if (!busy) return null;
  return (
    <div className="loading-overlay" role="status">
      <Spinner />
      <span className="visually-hidden">Please wait…</span>
    </div>
  );
}
