// The server's one reading of text that may carry markup (post bodies): as plain text for gated previews and link
// previews, as paragraphs for the e-mails. Every server path that reads HTML as text goes through htmlText.
//
// htmlparser2's Tokenizer (the state machine under its Parser) does the reading: one pass, linear in the input, with
// every HTML entity decoded. Its Parser is not used: it keeps a stack of open elements that it shifts, unshifts and
// searches per tag, which is quadratic on a body of thousands of unclosed tags; text needs no tree.

import { Tokenizer } from 'htmlparser2';
import { BLOCK_ELEMENTS, splitParagraphs } from './paragraphs';

const BLOCKS = new Set<string>(BLOCK_ELEMENTS);
/** Elements whose content is never shown as text. */
const HIDDEN = new Set(['script', 'style', 'template', 'title', 'noscript']);

/** `&nbsp;` reads as a space, as the editor means it. */
const NBSP = 0xa0;
const ignore = () => {};

/**
 * The text of `html`: tags dropped, entities decoded, the content of script, style and the like left out; a block
 * element's start and end become a blank line, `<br>` a line break. White space is kept as it was otherwise.
 */
export function htmlText(html: string): string {
  const parts: string[] = [];
  let hiddenDepth = 0;
  let openName = '';
  const nameAt = (start: number, end: number) => html.slice(start, end).toLowerCase();
  const opened = () => {
    if (HIDDEN.has(openName)) hiddenDepth += 1;
    else if (openName === 'br') parts.push('\n');
    else if (BLOCKS.has(openName)) parts.push('\n\n');
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext(start, end) {
        if (hiddenDepth === 0) parts.push(html.slice(start, end));
      },
      ontextentity(codepoint) {
        if (hiddenDepth === 0) parts.push(codepoint === NBSP ? ' ' : String.fromCodePoint(codepoint));
      },
      onopentagname(start, end) {
        openName = nameAt(start, end);
      },
      onopentagend: opened,
      // `<br/>` is a line break; a self-closed hidden element has no content to hide.
      onselfclosingtag() {
        if (!HIDDEN.has(openName)) opened();
      },
      onclosetag(start, end) {
        const name = nameAt(start, end);
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        else if (name === 'br') parts.push('\n');
        else if (BLOCKS.has(name)) parts.push('\n\n');
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onprocessinginstruction: ignore,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return parts.join('');
}

/** A post body as one line of plain text: markup read by htmlText, white space collapsed. */
export function plainText(html: string): string {
  return htmlText(html).replace(/\s+/g, ' ').trim();
}

/**
 * A body as paragraphs of plain text (the reminder e-mail). Bodies are typed in a textarea (line breaks matter) but
 * may carry markup from an editor: read by htmlText, then split at blank lines as the web's post page splits them.
 */
export const bodyParagraphs = (body: string | null | undefined): string[] =>
  splitParagraphs(htmlText(body ?? ''));
