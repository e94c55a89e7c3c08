// A post body as plain paragraphs: the one reading of the stored text shared by the web's post page and the
// reminder e-mail. Pure and zod-free, so the web app imports it at run time (`@nudge/contracts/paragraphs`).

const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
  '&amp;': '&',
};

/**
 * A body as paragraphs of plain text. Bodies are typed in a textarea (line breaks matter) but may carry markup from
 * an editor: block ends and <br> become line breaks, other tags go, entities are decoded. The text is never put in
 * the page as HTML. Paragraphs are split at blank lines; single line breaks stay inside a paragraph.
 */
export function bodyParagraphs(body: string | null | undefined): string[] {
  const text = (body ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|blockquote)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|lt|gt|quot|#39|apos|amp);/g, (entity) => ENTITIES[entity] ?? entity);
  return text
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.replace(/[ \t]+\n/g, '\n').trim())
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
