import { EventHistoryQuery } from '@nudge/contracts';
import type { RequestHandler } from 'express';
import { parseQuery } from '../http/validate';
import type { DocumentStore } from '../store/types';
import { type CommitDoc, EVENTS, eventsOf } from './commits';

export interface HistoryPage {
  status: true;
  events: ReturnType<typeof eventsOf>;
  next: number;
  done: boolean;
}

/** One page of a service's event history: the events of up to `limit` commits with seq > after, in seq order. */
export async function readHistoryPage(
  store: DocumentStore,
  after: number,
  limit: number,
): Promise<HistoryPage> {
  const commits = await store
    .collection<CommitDoc>(EVENTS)
    .find({ seq: { $gt: after } }, { sort: { seq: 1 }, limit });
  const last = commits[commits.length - 1];
  return {
    status: true,
    events: commits.flatMap(eventsOf),
    next: last ? last.seq : after,
    done: commits.length < limit,
  };
}

/**
 * GET /internal/events?after&limit (contracts: EventHistoryQuery / EventHistoryResponse), mounted by every
 * service behind requireInternal: reporting's backfill reads each service's history from it.
 */
export function eventHistoryHandler(store: DocumentStore): RequestHandler {
  return async (req, res) => {
    const { after, limit } = parseQuery(EventHistoryQuery, req);
    res.json(await readHistoryPage(store, after, limit));
  };
}
