import type { DeliveryFactKind, SuppressionChannel, SuppressionReason } from '@nudge/contracts';

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
