import type { IssuedCheckin, SiteSettings } from '@nudge/contracts';
import type { EmailBrand } from '@nudge/email';

/** Everything one reminder e-mail shows; every URL already signed (tracking redirects, unsubscribe). */
export interface ReminderEmailModel {
  settings: EmailBrand & Pick<SiteSettings, 'recommendationheading' | 'emailupdateheadline'>;
  firstname: string;
  heading: string;
  /** Paragraphs of the body (the locked preview for a plain reader and a premium post). */
  paragraphs: string[];
  locked: boolean;
  image: string | null;
  continueUrl: string;
  likeUrl: string;
  upgradeUrl: string | null;
  recommendations: { heading: string; url: string }[];
  checkin: { body: string; answers: { answer: number; url: string }[] } | null;
  unsubscribeUrl: string;
  openPixelUrl: string;
  /** The site's Terms and Privacy page (the same for every reader). */
  termsUrl: string;
}

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
