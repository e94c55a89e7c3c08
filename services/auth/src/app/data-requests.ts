import { randomBytes } from 'node:crypto';
import { type DataRequest, dataRequestDueAt } from '@nudge/contracts';
import { type DocumentStore, notFound } from '@nudge/platform';

type DataRequestDoc = DataRequest;

/**
 * The register of readers' data requests (export, deletion) with their due dates (received + one month,
 * reader.md §9), so an admin can show each was answered in time. A self-serve export is recorded answered at once;
 * a request received by e-mail is recorded by an admin and marked answered when it is.
 */
export function createDataRequests(store: DocumentStore, clock: () => Date = () => new Date()) {
  const requests = store.collection<DataRequestDoc>('data_requests');
  return {
    /**
     * Records one request. `answeredAt` given: answered already (a self-serve export, or a deletion that ran at
     * once). The deletion flow records its requests through this same function.
     */
    async record(request: {
      kind: DataRequest['kind'];
      channel: DataRequest['channel'];
      userId: string | null;
      email: string;
      receivedAt?: Date;
      answeredAt?: Date | null;
      note?: string;
    }): Promise<DataRequest> {
      const receivedAt = request.receivedAt ?? clock();
      const doc: DataRequestDoc = {
        _id: randomBytes(12).toString('hex'),
        kind: request.kind,
        channel: request.channel,
        userId: request.userId,
        email: request.email,
        receivedAt: receivedAt.toISOString(),
        dueAt: dataRequestDueAt(receivedAt).toISOString(),
        answeredAt: request.answeredAt ? request.answeredAt.toISOString() : null,
        note: request.note ?? '',
      };
      await requests.insertOne(doc);
      return doc;
    },
    async answered(id: string): Promise<DataRequest> {
      const found = await requests.findOne({ _id: id });
      if (!found) throw notFound('Data request not found');
      if (found.answeredAt) return found;
      const answered = { ...found, answeredAt: clock().toISOString() };
      await requests.replaceOne({ _id: id }, answered);
      return answered;
    },
    /** Newest received first. */
    async page(page: number, limit: number) {
      const [total, data] = await Promise.all([
        requests.countDocuments({}),
        requests.find({}, { sort: { receivedAt: -1, _id: -1 }, skip: (page - 1) * limit, limit }),
      ]);
      return { total, data };
    },
  };
}

export type DataRequests = ReturnType<typeof createDataRequests>;
