// A text as paragraphs, and text made safe for HTML: pure, zod-free and parser-free, so the web app imports it at run
// time (`@nudge/contracts/paragraphs`). The server reads markup with htmlText (html-text.ts) before splitting.

/** Elements whose start and end break a text into paragraphs (both readings of markup, server's and web's). */
export const BLOCK_ELEMENTS = [
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
] as const;

/**
 * Paragraphs of a plain text: split at blank lines (single line breaks stay inside a paragraph), spaces at line ends
 * dropped, empty paragraphs left out. Linear in the text: no regular expression here backtracks over a run of spaces.
 */
export function splitParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trimEnd())
        .join('\n')
        .trim(),
    )
    .filter((paragraph) => paragraph !== '');
}

/** Text made safe inside HTML text and quoted attribute values (the server-rendered pages and tags). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
