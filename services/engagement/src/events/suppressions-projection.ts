import { eventData, SuppressionEvents, type SuppressionReason } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';

/** One address on one channel that a delivery fact was ever heard about (stream `suppression-...`). */
export interface SuppressionDoc {
  _id: string;
  address: string;
  channel: 'email' | 'whatsapp';
  suppressed: boolean;
  reason: SuppressionReason | null;
  source: string | null;
  detail: string | null;
  since: string | null;
  softBounces: string[];
  lifted: { by: string; at: string } | null;
  version: number;
}

export const suppressionsCollection = (store: DocumentStore): Collection<SuppressionDoc> =>
  store.collection<SuppressionDoc>('suppressions');

/** Soft bounce times kept per address (far more than any sensible limit). */
const SOFT_BOUNCES_KEPT = 50;

export function createSuppressionsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const docs = suppressionsCollection(store);
  const types = new Set<string>(Object.values(SuppressionEvents).map((e) => e.type));
  return {
    name: 'engagement.suppressions',
    concurrency: 'stream',
    async ensureIndexes() {
      await docs.createIndex({ suppressed: 1, since: -1 });
      await docs.createIndex({ address: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!types.has(event.type)) return;
      const current = await docs.findOne({ _id: event.stream });
      if (current && current.version >= event.version) return;
      const base = (address: string, channel: 'email' | 'whatsapp'): SuppressionDoc =>
        current ?? {
          _id: event.stream,
          address,
          channel,
          suppressed: false,
          reason: null,
          source: null,
          detail: null,
          since: null,
          softBounces: [],
          lifted: null,
          version: 0,
        };
      let next: SuppressionDoc;
      if (event.type === SuppressionEvents.AddressSuppressed.type) {
        const d = eventData(SuppressionEvents.AddressSuppressed, event);
        next = {
          ...base(d.address, d.channel),
          suppressed: true,
          reason: d.reason,
          source: d.source,
          detail: d.detail,
          since: d.at,
        };
      } else if (event.type === SuppressionEvents.SoftBounceRecorded.type) {
        const d = eventData(SuppressionEvents.SoftBounceRecorded, event);
        const doc = base(d.address, d.channel);
        next = { ...doc, softBounces: [...doc.softBounces, d.at].slice(-SOFT_BOUNCES_KEPT) };
      } else {
        const d = eventData(SuppressionEvents.SuppressionLifted, event);
        // Lifted: mailed again, and soft bounces count afresh.
        next = {
          ...base(d.address, d.channel),
          suppressed: false,
          softBounces: [],
          lifted: { by: d.by, at: d.at },
        };
      }
      await docs.replaceOne({ _id: event.stream }, { ...next, version: event.version }, { upsert: true });
    },
    async reset() {
      await docs.drop();
    },
  };
}
