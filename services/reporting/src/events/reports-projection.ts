import { ReportingEvents, type ReportSnapshot } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';

export interface ReportDoc extends ReportSnapshot {
  _id: string;
  updatedAt: string;
  version: number;
}

export const reportsCollection = (store: DocumentStore): Collection<ReportDoc> =>
  store.collection<ReportDoc>('reports');

const TYPES = new Set<string>([ReportingEvents.ReportAdded.type, ReportingEvents.ReportUpdated.type]);

/** The `reports` read model: the folded report (event-carried state), idempotent by stream version. */
export function createReportsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const reports = reportsCollection(store);
  return {
    name: 'reporting.reports',
    async ensureIndexes() {
      await reports.createIndex({ createdAt: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!TYPES.has(event.type)) return;
      const data = ReportingEvents.ReportAdded.data.parse(event.data);
      const current = await reports.findOne({ _id: data.reportId });
      if (current && current.version >= event.version) return;
      await reports.replaceOne(
        { _id: data.reportId },
        { _id: data.reportId, ...data, updatedAt: event.occurredAt, version: event.version },
        { upsert: true },
      );
    },
    reset: () => reports.drop(),
  };
}
