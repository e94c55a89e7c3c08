const PATHS = { left: 'M15.5 4.5 8 12l7.5 7.5', right: 'M8.5 4.5 16 12l-7.5 7.5' } as const;

/** A chevron pointing left (back, previous) or right (next); decorative, so the button carries the label. */
export function ChevronIcon({
  direction = 'left',
  size = 24,
}: {
  direction?: 'left' | 'right';
  size?: number;
}) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[direction]} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
