import { apiRequest } from '../../shared/http';

type Answer = { status: true; message: string };

/** Deletes the signed-in reader's account (the server takes the user from the token). */
export const deleteMyAccount = (token: string | null) =>
  apiRequest<Answer>('POST', '/api/user/deleteaccount', {
    token,
    body: { token: token ?? undefined, confirm: 'DELETE' },
  });

/** An admin deletes a reader's account. */
export const deleteUserAccount = (userId: string, token: string | null) =>
  apiRequest<Answer>('POST', `/api/user/delete/${encodeURIComponent(userId)}`, {
    token,
    body: { token: token ?? undefined },
  });

/** What an admin is told before deleting a reader. */
export const ADMIN_DELETION_SAYS =
  'Their e-mail address, name and phone number become unreadable everywhere Nudge keeps them, their sessions and e-mailed links stop working, and their comments show as from “a former reader”. Payments stay as tax records (amounts, dates, a reference) for six years.';

/** What a deletion removes and what it keeps, as the confirmation says it. */
export const DELETION_GOES =
  'Your e-mail address, name, phone number, topics, reminders, likes, reading history and check-in answers are deleted everywhere Nudge keeps them, and you are signed out on every device.';
export const DELETION_STAYS =
  'Your comments stay, signed “a former reader”. Payments stay for six years as tax records holding only amounts, dates and a reference number, then are removed.';
