/** The round success (tick) or failure (cross) mark of the payment result and check-in pages; decorative. */
export function ResultIcon({ kind }: { kind: 'success' | 'failure' }) {
  return (
    <svg
      className={`result-icon result-icon--${kind}`}
      viewBox="0 0 48 48"
      width="64"
      height="64"
      aria-hidden="true"
    >
      <circle cx="24" cy="24" r="22" fill="currentColor" />
      {kind === 'success' ? (
        <path d="M14 24.5l7 7 13-15" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
      ) : (
        <path d="M16 16l16 16M32 16L16 32" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
      )}
    </svg>
  );
}
