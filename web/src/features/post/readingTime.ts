import { plainText } from '../../shared/bodyText';

/** Words a reader reads in a minute, for the reading time shown on a post. */
export const WORDS_PER_MINUTE = 200;

/** '1 min read' at least; null when there is no text to count (a locked premium post). */
export function readingTime(text: string | undefined): string | null {
  const words = plainText(text).split(' ').filter(Boolean).length;
  if (words === 0) return null;
  return `${Math.max(1, Math.round(words / WORDS_PER_MINUTE))} min read`;
}
