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

/** Something that failed (a load, a send): the message and a 'Retry' button that does it again. */
export function RetryLine({
  message,
  onRetry,
  className,
  disabled = false,
}: {
  message: string;
  onRetry(): void;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <div className={`retry-line${className ? ` ${className}` : ''}`}>
      <p role="alert">{message}</p>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={onRetry}
        disabled={disabled}
      >
        Retry
      </button>
    </div>
  );
}
