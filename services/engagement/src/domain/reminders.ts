import { ReminderEvents } from '@nudge/contracts';
import type { Decider } from '@nudge/platform';

/** A reminder send as its stream folds: whether it was recorded as sent, and whether it was opened. */
export interface ReminderState {
  sent: boolean;
  opened: boolean;
}

/** A fact the reader's mail client (an open) or a click reports, with the event data to record. */
export type ReminderFact = { kind: 'open'; data: unknown } | { kind: 'click'; data: unknown };

/** A fact attaches only to a send recorded here; an open counts once, every click counts. */
export const reminderDecider: Decider<ReminderState, ReminderFact> = {
  initialState: { sent: false, opened: false },
  evolve: (state, event) => {
    if (event.type === ReminderEvents.ReminderSent.type) return { ...state, sent: true };
    if (event.type === ReminderEvents.ReminderOpened.type) return { ...state, opened: true };
    return state;
  },
  decide: (fact, state) => {
    if (!state.sent) return [];
    if (fact.kind === 'click') return [{ type: ReminderEvents.ReminderClicked.type, data: fact.data }];
    return state.opened ? [] : [{ type: ReminderEvents.ReminderOpened.type, data: fact.data }];
  },
};
