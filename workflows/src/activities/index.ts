import { createReminderActivities, type ReminderDeps } from './reminders';

export * from './internal-client';
export type { BatchResult, ReminderDeps } from './reminders';

/**
 * Every activity of the reminders (and, later, renewals), built from their ports. The Temporal worker registers
 * these; the embedded scheduler calls the same functions.
 */
export function createActivities(deps: ReminderDeps) {
  return {
    ...createReminderActivities(deps),
    /**
     * The renewal tick: billing sends notices 7 days before endAt and expires subscriptions whose end (plus the
     * grace period for a late renewal webhook) has passed. Idempotent: notices are kept per (subscription, endAt).
     */
    async renewalTick(input: { at: string }) {
      return deps.call<{ expired: string[]; notices: number }>(
        'billing',
        '/internal/subscriptions/run-due',
        input,
      );
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
