import { BLOCK_ELEMENTS, splitParagraphs } from '@nudge/contracts/paragraphs';

// A post body as the web shows it. Bodies are typed in a textarea but may carry markup from an editor. The server
// reads markup with htmlparser2 (@nudge/contracts/html-text); its entity tables are too heavy for the reader's first
// load (about 20 KB compressed), so the web reads the same structure with expressions that stay linear in the body:
// a tag is `<`, then a letter, `/`, `!` or `?`, then anything but `<` and `>` up to `>`, so every attempt ends at the
// next `<` and a body of thousands of unclosed `<` costs one pass.

const BLOCK_TAG = new RegExp(`<\\/?(?:${BLOCK_ELEMENTS.join('|')})(?=[\\s/>])[^<>]*>`, 'gi');
const BREAK_TAG = /<br(?=[\s/>])[^<>]*>/gi;
const TAG = /<[A-Za-z/!?][^<>]*>/g;
const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
  '&amp;': '&',
};

/** The text of a body: block elements become blank lines, `<br>` a line break, other tags go, entities decoded. */
export function bodyText(body: string | null | undefined): string {
  return (body ?? '')
    .replace(BLOCK_TAG, '\n\n')
    .replace(BREAK_TAG, '\n')
    .replace(TAG, '')
    .replace(/&(?:nbsp|lt|gt|quot|#39|apos|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** The body as paragraphs of plain text (the post page; the reminder e-mail splits the same way). */
export const bodyParagraphs = (body: string | null | undefined): string[] => splitParagraphs(bodyText(body));

/** The body as one line of plain text (card previews, the reading time). */
export const plainText = (body: string | null | undefined): string =>
  bodyText(body).replace(/\s+/g, ' ').trim();
