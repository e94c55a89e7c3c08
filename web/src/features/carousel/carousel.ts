// Recommendations carousel rules (reader.md §4 Carousel, §9 carousel constants). Pure functions: the component
// measures the window and the pointer and asks these for the layout and the next index.

/** Space between cards, px. */
export const GAP = 24;
/** Card width on windows wider than NARROW_WINDOW, px. */
export const CARD_WIDTH = 420;
/** Windows this wide or narrower get a card of the window width minus NARROW_MARGIN. */
export const NARROW_WINDOW = 500;
export const NARROW_MARGIN = 34;
/** Slide animation, ms. */
export const SLIDE_MS = 300;
/** The next page loads when the current card is one of the last LOAD_MORE_WITHIN loaded cards. */
export const LOAD_MORE_WITHIN = 3;

/** Card width for a window width: 420, or the window width minus 34 at 500 or narrower (never below 0). */
export function cardWidth(windowWidth: number): number {
  return windowWidth <= NARROW_WINDOW ? Math.max(0, windowWidth - NARROW_MARGIN) : CARD_WIDTH;
}

/** How far one card moves the track: a card and a gap. */
export function cardStep(width: number): number {
  return width + GAP;
}

/**
 * The result of a swipe, as a change of index.
 * `deltaX` is pointer end x minus start x: dragging left (negative) reveals the next card (+1), dragging right
 * (positive) the previous one (-1). Only a drag strictly beyond a quarter of the card width moves; exactly a
 * quarter or less snaps back (0).
 */
export function swipeResult(deltaX: number, width: number): -1 | 0 | 1 {
  const threshold = width / 4;
  if (deltaX < -threshold) return 1;
  if (deltaX > threshold) return -1;
  return 0;
}

/** `index` kept within the loaded cards, 0 when there are none. */
export function clampIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(index)));
}

/** The index after a swipe (or an arrow press of -1 / +1), within the loaded cards. */
export function nextIndex(index: number, step: -1 | 0 | 1, count: number): number {
  return clampIndex(index + step, count);
}

/**
 * Whether to fetch the next recommendations page.
 * Choice for 'within 3 cards of the end': the current card is one of the last 3 loaded (index >= loaded - 3);
 * never when the last page came back empty (`hasMore` false). With fewer than 3 cards loaded it is true at once.
 */
export function shouldLoadMore(index: number, loadedCount: number, hasMore: boolean): boolean {
  return hasMore && index >= loadedCount - LOAD_MORE_WITHIN;
}

/**
 * The track's horizontal offset in px for showing card `index`, plus an optional live drag offset (the
 * pointer's deltaX while dragging). Negative moves the track left.
 */
export function translateX(index: number, width: number, dragDeltaX = 0): number {
  const offset = -index * cardStep(width) + dragDeltaX;
  return offset === 0 ? 0 : offset; // no -0 for index 0
}
