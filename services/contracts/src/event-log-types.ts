/** admin.md §3: the analytics events the web sends (no zod here: the admin's filter imports this at run time). */
export const WEB_LOG_TYPES = [
  'page_visit',
  'web_comment_click',
  'web_like_click',
  'email_like_click',
  'email_continue_reading',
] as const;

/** The types the server records itself in the event log, from the readers' domain activity. */
export const SERVER_LOG_TYPES = [
  'sign_up',
  'sign_in',
  'post_read',
  'like',
  'comment',
  'checkin_answer',
  'email_sent',
  'email_open',
  'email_click',
] as const;

/** Every event type the admin's event log shows (its type filter's choices). */
export const EVENT_LOG_TYPES = [...WEB_LOG_TYPES, ...SERVER_LOG_TYPES] as const;
