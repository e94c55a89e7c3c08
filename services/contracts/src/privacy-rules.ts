// The rules of the reader's data (reader.md §9) and the default texts of the Terms and Privacy page: pure and
// zod-free, so the web app imports them at run time (`@nudge/contracts/privacy-rules`).

import { addMonths } from './days';

/** reader.md §9: nobody younger may create an account. */
export const MINIMUM_AGE = 16;
/** reader.md §9: a data request (export or deletion) is answered within one calendar month of its receipt. */
export const DATA_REQUEST_MONTHS = 1;
/** reader.md §9: payment records are kept as tax records for six years. */
export const TAX_RECORD_YEARS = 6;

export const MINIMUM_AGE_MESSAGE = `You must be at least ${MINIMUM_AGE} to create an account`;

/**
 * The day a data request received at `receivedAt` must be answered by: one calendar month later, at the same time
 * of day (received 31 January: due on the last day of February, not in March).
 */
export const dataRequestDueAt = (receivedAt: Date): Date => addMonths(receivedAt, DATA_REQUEST_MONTHS);

/** The Terms text until an admin sets one (site setting `termstext`); paragraphs are separated by blank lines. */
export const DEFAULT_TERMS_TEXT = [
  `You may create an account only if you are at least ${MINIMUM_AGE} years old. When you sign up you confirm that you are.`,
  'Your account gives you a daily reminder by e-mail or WhatsApp at the time you choose, posts to read, likes, comments and check-in questions. You can change the reminder time, pause reminders or unsubscribe at any time from your settings or from the link in every e-mail.',
  'A premium subscription lasts 12 months and renews yearly until you cancel it. You may cancel for a refund within 7 days of the start of a subscription.',
  'Comments must be respectful; we may remove comments that are not.',
].join('\n\n');

/** The Privacy text until an admin sets one (site setting `privacytext`); paragraphs are separated by blank lines. */
export const DEFAULT_PRIVACY_TEXT = [
  'We keep what you give us and what you do here: your e-mail address, name and WhatsApp number, your reminder settings and topics, the posts you read and like, your comments, your check-in answers and wellbeing score, the reminders we send you and whether you opened or clicked them, your subscription and payments, your sign-ins, and the pages you visit.',
  'You can download everything we hold about you at any time: "Download my data" on your settings page gives you one archive.',
  `You can ask us for your data, or ask us to delete it, by e-mail too. We answer every data request within one month of receiving it.`,
  `Payment records are tax records: the law requires us to keep them for ${TAX_RECORD_YEARS} years, after which they are removed.`,
].join('\n\n');
