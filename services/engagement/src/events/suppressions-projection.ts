import { eventData, SuppressionEvents, type SuppressionReason } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { evolveSuppression } from '../domain/suppressions';

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
      const { address, channel } = event.data as { address: string; channel: 'email' | 'whatsapp' };
      const doc = base(address, channel);
      let next: SuppressionDoc = { ...doc, ...evolveSuppression(doc, event) };
      if (event.type === SuppressionEvents.AddressSuppressed.type) {
        const d = eventData(SuppressionEvents.AddressSuppressed, event);
        next = { ...next, source: d.source, detail: d.detail, since: d.at };
      } else if (event.type === SuppressionEvents.SuppressionLifted.type) {
        const d = eventData(SuppressionEvents.SuppressionLifted, event);
        next = { ...next, lifted: { by: d.by, at: d.at } };
      }
      await docs.replaceOne({ _id: event.stream }, { ...next, version: event.version }, { upsert: true });
    },
    async reset() {
      await docs.drop();
    },
  };
}
