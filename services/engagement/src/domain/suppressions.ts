import {
  type DeliveryFactKind,
  eventData,
  type SuppressionChannel,
  SuppressionEvents,
  type SuppressionReason,
} from '@nudge/contracts';
import { type DecidedEvent, type Decider, type EventEnvelope, notFound } from '@nudge/platform';

/** The suppression state of one address on one channel (the read model's document, without its bookkeeping). */
export interface SuppressionState {
  suppressed: boolean;
  reason: SuppressionReason | null;
  /** When the soft bounces since the last lift happened (ISO times). */
  softBounces: string[];
}

/** Soft bounces repeated `limit` times within `days` days suppress the address. */
export interface SoftBounceRule {
  limit: number;
  days: number;
}

export interface DeliveryFact {
  kind: DeliveryFactKind;
  channel: SuppressionChannel;
  address: string;
  source: string;
  detail: string;
}

type Decided = { type: 'AddressSuppressed'; reason: SuppressionReason } | { type: 'SoftBounceRecorded' };

/** The soft bounces of `state` that still count at `now`. */
export const recentSoftBounces = (state: SuppressionState, now: Date, rule: SoftBounceRule) =>
  state.softBounces.filter((at) => now.getTime() - Date.parse(at) < rule.days * 86_400_000);

/**
 * What a delivery fact changes: a hard bounce, a complaint, an invalid address or an opt-out suppresses the address
 * (once: a second one adds nothing); a soft bounce is recorded, and suppresses when it makes `limit` within `days`.
 */
export function decideFact(
  state: SuppressionState,
  fact: DeliveryFact,
  now: Date,
  rule: SoftBounceRule,
): Decided[] {
  if (fact.kind !== 'soft_bounce')
    return state.suppressed ? [] : [{ type: 'AddressSuppressed', reason: fact.kind }];
  const out: Decided[] = [{ type: 'SoftBounceRecorded' }];
  if (!state.suppressed && recentSoftBounces(state, now, rule).length + 1 >= rule.limit)
    out.push({ type: 'AddressSuppressed', reason: 'soft_bounces' });
  return out;
}

/** Soft bounce times kept per address (far more than any sensible limit). */
export const SOFT_BOUNCES_KEPT = 50;

/** The state after one event of an address's stream (the decider's fold and the read model's alike). */
export function evolveSuppression(state: SuppressionState, event: EventEnvelope): SuppressionState {
  if (event.type === SuppressionEvents.AddressSuppressed.type) {
    const d = eventData(SuppressionEvents.AddressSuppressed, event);
    return { ...state, suppressed: true, reason: d.reason };
  }
  if (event.type === SuppressionEvents.SoftBounceRecorded.type) {
    const d = eventData(SuppressionEvents.SoftBounceRecorded, event);
    return { ...state, softBounces: [...state.softBounces, d.at].slice(-SOFT_BOUNCES_KEPT) };
  }
  // Lifted: mailed again, and soft bounces count afresh.
  if (event.type === SuppressionEvents.SuppressionLifted.type)
    return { suppressed: false, reason: null, softBounces: [] };
  return state;
}

export type SuppressionCommand =
  | { kind: 'fact'; fact: DeliveryFact; now: Date; rule: SoftBounceRule }
  | { kind: 'lift'; channel: SuppressionChannel; address: string; by: string; now: Date };

/** The rules of one address's stream: a delivery fact (see decideFact) or an admin's lift of a suppression. */
export const suppressionDecider: Decider<SuppressionState, SuppressionCommand> = {
  initialState: { suppressed: false, reason: null, softBounces: [] },
  evolve: evolveSuppression,
  decide(command, state): DecidedEvent[] {
    const at = command.now.toISOString();
    if (command.kind === 'lift') {
      if (!state.suppressed) throw notFound(`${command.address} is not suppressed on ${command.channel}`);
      const data = { address: command.address, channel: command.channel, by: command.by, at };
      return [{ type: SuppressionEvents.SuppressionLifted.type, data }];
    }
    const { fact } = command;
    const common = {
      address: fact.address,
      channel: fact.channel,
      source: fact.source,
      detail: fact.detail,
      at,
    };
    return decideFact(state, fact, command.now, command.rule).map((d) =>
      d.type === 'AddressSuppressed'
        ? { type: SuppressionEvents.AddressSuppressed.type, data: { ...common, reason: d.reason } }
        : { type: SuppressionEvents.SoftBounceRecorded.type, data: common },
    );
  },
};
