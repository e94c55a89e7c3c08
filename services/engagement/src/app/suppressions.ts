import { createHash } from 'node:crypto';
import type { DeliveryFactsRequest, SuppressionChannel, SuppressionView } from '@nudge/contracts';
import {
  type DocumentStore,
  DuplicateKeyError,
  handleCommand,
  notFound,
  type ServiceEventStore,
} from '@nudge/platform';
import type { z } from 'zod';
import { recentSoftBounces, type SoftBounceRule, suppressionDecider } from '../domain/suppressions';
import { type SuppressionDoc, suppressionsCollection } from '../events/suppressions-projection';

type Fact = z.infer<typeof DeliveryFactsRequest>['facts'][number];

/** The stream of one address on one channel; the address is hashed (a stream id is logged and published as a key). */
export const suppressionStream = (channel: SuppressionChannel, address: string) =>
  `suppression-${channel}-${createHash('sha256').update(address.trim().toLowerCase()).digest('hex').slice(0, 32)}`;

const PAGE = 50;

/**
 * The suppression list: delivery facts in (the send's own SMTP answer, providers' webhooks, opt-outs), the check
 * every send makes first, and the admin's view and lift (who and when, recorded as events).
 */
export function createSuppressions(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  clock: () => Date;
  softBounces: SoftBounceRule;
}) {
  const docs = suppressionsCollection(deps.store);
  /** Ids of provider events already handled (a webhook delivers an event at least once). */
  const seen = deps.store.collection<{ _id: string; at: string }>('delivery_facts_seen');

  const view = (doc: SuppressionDoc): SuppressionView => ({
    address: doc.address,
    channel: doc.channel,
    suppressed: doc.suppressed,
    reason: doc.suppressed ? doc.reason : null,
    source: doc.suppressed ? doc.source : null,
    detail: doc.suppressed ? doc.detail : null,
    since: doc.suppressed ? doc.since : null,
    softBounces: recentSoftBounces(doc, deps.clock(), deps.softBounces).length,
    lifted: doc.lifted,
  });

  /** Appends what one fact decides, through the command handler (decided again when a parallel fact moved the stream). */
  const applyFact = (fact: Fact) =>
    handleCommand(
      deps.events,
      suppressionStream(fact.channel, fact.address),
      suppressionDecider,
      { kind: 'fact', fact, now: deps.clock(), rule: deps.softBounces },
      { actor: 'system' },
    );

  return {
    /** The addresses of a batch that get nothing. */
    async check(addresses: { channel: SuppressionChannel; address: string }[]) {
      if (addresses.length === 0) return [];
      const found = await docs.find(
        { _id: { $in: addresses.map((a) => suppressionStream(a.channel, a.address)) }, suppressed: true },
        { projection: { address: 1, channel: 1 } },
      );
      return found.map((d) => ({ channel: d.channel, address: d.address }));
    },

    /** Records each fact once (by its id when it has one); returns how many were new. */
    async recordFacts(facts: Fact[]) {
      let recorded = 0;
      let duplicates = 0;
      for (const fact of facts) {
        const key = fact.id === undefined ? undefined : `${fact.source}:${fact.id}`;
        if (key !== undefined) {
          try {
            await seen.insertOne({ _id: key, at: deps.clock().toISOString() });
          } catch (err) {
            if (!(err instanceof DuplicateKeyError)) throw err;
            duplicates += 1;
            continue;
          }
        }
        try {
          await applyFact(fact);
        } catch (err) {
          // Not handled: a redelivery of the same event is handled then.
          if (key !== undefined) await seen.deleteOne({ _id: key });
          throw err;
        }
        recorded += 1;
      }
      return { recorded, duplicates };
    },

    /** The admin's list: suppressed addresses newest first, or one address whatever its state. */
    async list(query: { address?: string; page: number }) {
      const filter = query.address ? { address: query.address } : { suppressed: true };
      const [found, total] = await Promise.all([
        docs.find(filter, { sort: { since: -1 }, skip: (query.page - 1) * PAGE, limit: PAGE }),
        docs.countDocuments(filter),
      ]);
      return { suppressions: found.map(view), total };
    },

    /** An admin lifts a suppression: the address is sent to again; who and when are recorded. */
    async lift(channel: SuppressionChannel, address: string, by: string) {
      const stream = suppressionStream(channel, address);
      await handleCommand(
        deps.events,
        stream,
        suppressionDecider,
        { kind: 'lift', channel, address, by, now: deps.clock() },
        { actor: by },
      );
      const lifted = await docs.findOne({ _id: stream });
      if (!lifted) throw notFound(`${address} is not suppressed on ${channel}`);
      return view(lifted);
    },
  };
}

export type Suppressions = ReturnType<typeof createSuppressions>;
