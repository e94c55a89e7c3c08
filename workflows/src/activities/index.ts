import { createReminderActivities, type ReminderDeps } from './reminders';

export * from './internal-client';
export type { BatchResult, ReminderDeps } from './reminders';

/**
 * Every activity of the reminders (and, later, renewals), built from their ports. The Temporal worker registers
 * these; the embedded scheduler calls the same functions.
 */
export function createActivities(deps: ReminderDeps) {
  return { ...createReminderActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
