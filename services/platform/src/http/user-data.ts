import { type UserDataKind, UserDataRequest } from '@nudge/contracts';
import type { RequestHandler } from 'express';
import type { DocumentStore } from '../store';
import { answerJson } from './answer-json';
import { parseBody } from './validate';

/** Fields of stored documents that are bookkeeping, not the reader's data (left out of the export). */
const BOOKKEEPING = new Set(['version', 'qlidHash', 'stream', 'at']);

/** A stored document as the reader's export shows it: its fields without the bookkeeping. */
export const exportRecord = (doc: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([key]) => !BOOKKEEPING.has(key)));

/** Every document of a collection that belongs to the reader (by `userId`), as export records, oldest first. */
export async function userDocuments(
  store: DocumentStore,
  collection: string,
  userId: string,
  filter: Record<string, unknown> = {},
): Promise<Record<string, unknown>[]> {
  const docs = await store.collection<{ _id: string }>(collection).find({ userId, ...filter });
  return docs.map(exportRecord);
}

/**
 * The handler of POST /internal/privacy/user-data (each service mounts it behind requireInternal): what the service
 * holds about one reader, kind by kind, for the reader's "Download my data" that auth assembles.
 */
export function userDataHandler(kinds: (userId: string) => Promise<UserDataKind[]>): RequestHandler {
  return async (req, res) => {
    const { userId } = parseBody(UserDataRequest, req);
    answerJson(res, { status: true, kinds: await kinds(userId) });
  };
}
