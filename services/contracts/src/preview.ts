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
  const alreadyCut = TRAILING_ELLIPSIS.test(text);
  const whole = alreadyCut ? text.replace(TRAILING_ELLIPSIS, '') : text;
  const characters = charactersOf(whole);
  if (characters.length <= limit)
    return alreadyCut ? `${whole.replace(TRAILING_JOINERS, '')}${ELLIPSIS}` : text;
  let end = limit;
  if (!/\s/u.test(characters[limit] ?? ' ')) {
    let space = limit - 1;
    while (space >= 0 && !/\s/u.test(characters[space] ?? '')) space -= 1;
    if (space >= limit / 2) end = space;
  }
  return `${characters.slice(0, end).join('').replace(TRAILING_JOINERS, '')}${ELLIPSIS}`;
}
