import { EventHistoryResponse, type ServiceName } from '@nudge/contracts';
import { createInternalClient, type Logger } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { chTime, Envelope, type EventRow, toEventRow } from '../domain/rows';
import type { EventWriter } from './ingest';

export const BACKFILLED: ServiceName[] = ['auth', 'content', 'engagement', 'billing'];
const PAGE = 2_000;

/**
 * Fills a new or wiped store from every service's history (GET /internal/events, commit order, a cursor per
 * service kept in `backfill_cursors`), while the bus consumer runs: events both paths bring are the same ids, so
 * the overlap doubles nothing, and the bus covers whatever commits after the history read ends.
 */
export function createBackfill(deps: {
  analytics: AnalyticsStore;
  writer: EventWriter;
  serviceUrls: Partial<Record<ServiceName, string>>;
  internalToken: string;
  log: Logger;
}) {
  const client = createInternalClient({ internalToken: deps.internalToken });
  let stopped = false;

  const cursorOf = async (service: string) => {
    const [row] = await deps.analytics.query<{ after: number; done: boolean }>(
      'SELECT after, done FROM backfill_cursors FINAL WHERE service = {service:String}',
      { service },
    );
    return { after: Number(row?.after ?? 0), done: Boolean(row?.done) };
  };
  const save = (service: string, after: number, done: boolean) =>
    deps.analytics.insert('backfill_cursors', [{ service, after, done, at: chTime(new Date()) }]);

  /** Reads one service's history to its end; returns false when the service is not known or not reachable. */
  const fill = async (service: ServiceName): Promise<boolean> => {
    const base = deps.serviceUrls[service];
    if (!base) return false;
    let { after, done } = await cursorOf(service);
    while (!done && !stopped) {
      const { status, body } = await client.exchange(base, `/internal/events?after=${after}&limit=${PAGE}`, {
        timeoutMs: 30_000,
      });
      if (status < 200 || status >= 300) throw new Error(`${service} answered ${status} to the history read`);
      const page = EventHistoryResponse.parse(body);
      const rows: EventRow[] = [];
      const notEvents: string[] = [];
      for (const e of page.events) {
        const parsed = Envelope.safeParse(e);
        if (parsed.success) rows.push(toEventRow(parsed.data));
        else notEvents.push(JSON.stringify(e));
      }
      await deps.writer.notRows('backfill', notEvents, 'not an event envelope');
      await deps.writer.write(rows, 'backfill');
      after = page.next;
      done = page.done;
      await save(service, after, done);
    }
    return true;
  };

  return {
    /** Runs until every known service's history is in (retrying unreachable ones with a backoff). */
    async run() {
      const left = new Set(BACKFILLED);
      for (let attempt = 1; left.size > 0 && !stopped; attempt++) {
        for (const service of [...left]) {
          try {
            if (await fill(service)) {
              left.delete(service);
              deps.log.info({ service }, 'reporting: history backfilled');
            }
          } catch (err) {
            deps.log.warn({ err, service }, 'reporting: history backfill failed; retrying');
          }
        }
        if (left.size > 0)
          await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)).unref());
      }
    },
    stop() {
      stopped = true;
    },
  };
}
