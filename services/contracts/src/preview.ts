// Short previews of a text (card bodies, recommendation headings, gated premium previews): one rule for the server
// and the web, so a preview cut by the server and shown by the web never ends in '....'.

export const ELLIPSIS = '...';

const graphemes: Intl.Segmenter | null =
  typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The user-perceived characters of `text` (code points without Intl.Segmenter: a surrogate pair stays whole). */
function charactersOf(text: string): string[] {
  return graphemes ? Array.from(graphemes.segment(text), ({ segment }) => segment) : Array.from(text);
}

/** An ellipsis the text already ends with ('...' or '…'), dropped before measuring so it is never doubled. */
const TRAILING_ELLIPSIS = /(?:\.{3,}|…)\s*$/u;
/** Code units at the end of a text searched for an ellipsis it already ends with. */
const TAIL = 256;
/** Code units read per character of a preview (a grapheme of emoji with modifiers and joiners fits). */
const GRAPHEME_UNITS = 32;
/** What may not end a preview before its '...': spaces and punctuation that would read as '.,...' or ' ...'. */
const TRAILING_JOINERS = /[\s.,;:!?…\-–—]+$/u;

/**
 * The first words of `text` within `max` characters, followed by '...' once when anything was cut.
 * - A character is a grapheme, so an emoji or a flag is never cut in half.
 * - The cut falls at a word boundary: a word that does not fit is left out whole, unless that would keep less than
 *   half of `max` (one very long word), when the word is cut.
 * - Spaces and punctuation before the cut are dropped and the '...' does not count in `max`.
 * - A text that already ends in an ellipsis (a server-cut preview) keeps a single '...'.
 */
export function textPreview(text: string | null | undefined, max: number): string {
  if (!text) return '';
  const limit = Math.max(0, Math.floor(max));
  // Only the tail can hold the ellipsis and only the head is shown: neither scan grows with a long body.
  const tail = text.slice(-TAIL);
  const ellipsis = TRAILING_ELLIPSIS.exec(tail);
  const alreadyCut = ellipsis !== null;
  const whole = ellipsis ? text.slice(0, text.length - tail.length + ellipsis.index) : text;
  // A grapheme is at most a few dozen code units; a head of that many per character holds the first `limit + 1`.
  const head =
    whole.length > (limit + 1) * GRAPHEME_UNITS ? whole.slice(0, (limit + 1) * GRAPHEME_UNITS) : whole;
  const characters = charactersOf(head);
  if (head === whole && characters.length <= limit)
    return alreadyCut ? `${whole.replace(TRAILING_JOINERS, '')}${ELLIPSIS}` : text;
  let end = limit;
  if (!/\s/u.test(characters[limit] ?? ' ')) {
    let space = limit - 1;
    while (space >= 0 && !/\s/u.test(characters[space] ?? '')) space -= 1;
    if (space >= limit / 2) end = space;
  }
  return `${characters.slice(0, end).join('').replace(TRAILING_JOINERS, '')}${ELLIPSIS}`;
}
