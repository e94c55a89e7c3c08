/** The spinning ring; decorative, the surrounding status element carries the words. */
export function Spinner({ size = 40 }: { size?: number }) {
  return <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />;
}
