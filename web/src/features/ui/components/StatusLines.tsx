import { Spinner } from './Spinner';

/** A spinner with what is loading; `hideLabel` keeps the label for screen readers only. */
export function LoadingLine({
  label,
  size,
  hideLabel = false,
}: {
  label: string;
  size?: number;
  hideLabel?: boolean;
}) {
  return (
    <div className="inline-status" role="status">
      <Spinner {...(size ? { size } : {})} />
      <span className={hideLabel ? 'visually-hidden' : undefined}>{label}</span>
    </div>
  );
}

/** A load that failed: the message and a 'Try again' button. */
export function RetryLine({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry(): void;
  className?: string;
}) {
  return (
    <div className={className}>
      <p role="alert">{message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
