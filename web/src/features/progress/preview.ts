// Text previews on cards (reader.md §2 post card, §9: card body 150 characters, recommendation heading 50 and
// body 150). Pure functions.

export const CARD_PREVIEW_LENGTH = 150;
export const RECOMMENDATION_HEADING_LENGTH = 50;
export const RECOMMENDATION_BODY_LENGTH = 150;
export const ELLIPSIS = '...';

const graphemes: Intl.Segmenter | null =
  typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

function* segmentsOf(segmenter: Intl.Segmenter, text: string): Generator<string> {
  for (const { segment } of segmenter.segment(text)) yield segment;
}

/**
 * The first `max` characters of `text`, or null when the text has at most `max` characters.
 * A character is a user-perceived character (grapheme), so an emoji, a flag or a ZWJ family is never cut in
 * half; without Intl.Segmenter it falls back to code points, which still never splits a surrogate pair.
 */
function firstCharacters(text: string, max: number): string | null {
  let taken = '';
  let count = 0;
  const characters: Iterable<string> = graphemes ? segmentsOf(graphemes, text) : text;
  for (const character of characters) {
    if (count === max) return taken;
    taken += character;
    count++;
  }
  return null;
}

/**
 * The first `max` characters of `text` followed by '...'.
 * Choices:
 * - '...' is added only when something was cut: a body of at most `max` characters is shown whole, so a short
 *   post does not look truncated.
 * - Whitespace just before the cut is dropped ('word ...' becomes 'word...'); the '...' does not count in `max`.
 * - A missing text gives ''.
 */
export function preview(text: string | null | undefined, max: number): string {
  if (!text) return '';
  const limit = Math.max(0, Math.floor(max));
  const cut = firstCharacters(text, limit);
  return cut === null ? text : `${cut.trimEnd()}${ELLIPSIS}`;
}

/** Post card body: first 150 characters. */
export function cardPreview(body: string | null | undefined): string {
  return preview(body, CARD_PREVIEW_LENGTH);
}

/** Recommendation card heading: first 50 characters. */
export function recommendationHeading(heading: string | null | undefined): string {
  return preview(heading, RECOMMENDATION_HEADING_LENGTH);
}

/** Recommendation card body: first 150 characters. */
export function recommendationBody(body: string | null | undefined): string {
  return preview(body, RECOMMENDATION_BODY_LENGTH);
}
