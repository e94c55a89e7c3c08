// Arrival from a 'continue reading' e-mail link (reader.md §2 query event=continue_reading, §7 events). Pure.
import type { EventLogEntry } from '../eventlog/api';
import { navigationEvent } from '../eventlog/pageVisitEvent';

export const CONTINUE_READING = 'continue_reading';

export const isContinueReading = (event: string | null | undefined): boolean => event === CONTINUE_READING;

/** The email_continue_reading event: the path as value and the full URL in the metadata, like page_visit. */
export const continueReadingEvent = (token: string | null, path: string, url: string): EventLogEntry =>
  navigationEvent('email_continue_reading', token, path, url);
