import type { IssuedCheckin, SiteSettings } from '@nudge/contracts';
import { textPreview } from '@nudge/contracts/preview';
import type { EmailBrand } from '@nudge/email';

/** Everything one reminder e-mail shows; every URL already signed (tracking redirects, unsubscribe). */
export interface ReminderEmailModel {
  settings: EmailBrand & Pick<SiteSettings, 'recommendationheading' | 'emailupdateheadline'>;
  firstname: string;
  heading: string;
  /** The inbox preview line shown after the subject: the post's opening words, not the heading again. */
  preheader: string;
  /** Paragraphs of the body: the whole post, its teaser, or the locked preview for a plain reader and a premium post. */
  paragraphs: string[];
  /** The paragraphs are the whole post (the emailfullpost setting), so the button opens it rather than continues it. */
  fullPost: boolean;
  locked: boolean;
  image: string | null;
  continueUrl: string;
  likeUrl: string;
  upgradeUrl: string | null;
  recommendations: { heading: string; url: string }[];
  checkin: { body: string; answers: { answer: number; url: string }[] } | null;
  unsubscribeUrl: string;
  openPixelUrl: string;
}

/** Characters of the post an e-mail shows as a teaser, and of the inbox preview line. */
export const TEASER_CHARS = 300;
export const PREHEADER_CHARS = 140;

/**
 * The teaser of a post: whole paragraphs while they fit in `max` characters, then the next one cut at a word with
 * '...' (only when at least a line of it fits; a single long paragraph is always cut, never left out).
 */
export function teaserParagraphs(paragraphs: readonly string[], max = TEASER_CHARS): string[] {
  const out: string[] = [];
  let left = max;
  for (const paragraph of paragraphs) {
    if (paragraph.length <= left) {
      out.push(paragraph);
      left -= paragraph.length;
      continue;
    }
    if (out.length === 0 || left >= 60) out.push(textPreview(paragraph, left));
    break;
  }
  return out;
}

/** The inbox preview line: the post's opening words (the subject already carries the heading). */
export const preheaderOf = (paragraphs: readonly string[]): string =>
  textPreview(paragraphs.join(' '), PREHEADER_CHARS);

/** The post body as plain paragraphs (the same reading of the stored text as the web's post page). */
export { bodyParagraphs as paragraphsOf } from '@nudge/contracts/html-text';

export const CHECKIN_LABELS: Record<number, string> = {
  1: 'Not at all',
  2: 'A little',
  3: 'Somewhat',
  4: 'Mostly',
  5: 'Completely',
};

export type CheckinLinks = IssuedCheckin['links'];
