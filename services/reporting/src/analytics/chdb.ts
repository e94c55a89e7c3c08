import { mkdir } from 'node:fs/promises';
import { Session } from 'chdb';
import type { AnalyticsStore, QueryParams } from './types';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const parseRows = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

/**
 * chDB: ClickHouse in this process, its files under `dir`. queryBindAsync runs on a libuv thread (off the event
 * loop) and binds `{name:Type}` parameters in the engine, so the gateway sharing the process is not blocked.
 */
export async function openChdbStore(dir: string): Promise<AnalyticsStore> {
  await mkdir(dir, { recursive: true });
  const session = new Session(dir);
  // chDB keeps one streaming query per connection, and any other call on the connection while it is open ends the
  // stream ("No active streaming query"). So a stream runs alone: it waits for the calls in flight, and calls that
  // come while it streams wait for it (an export holds ingestion back for its duration; the spool and the bus keep
  // what waits).
  let streaming: Promise<void> | undefined;
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    while (streaming) await streaming;
    inFlight += 1;
    try {
      return await work();
    } finally {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    }
  };
  const run = (sql: string, params: QueryParams = {}) =>
    exclusive(async () => (await session.queryBindAsync(sql, params, { format: 'JSONEachRow' })).text());
  await run('SET output_format_json_quote_64bit_integers = 0').catch(() => undefined);
  return {
    kind: 'chdb',
    async exec(sql, params) {
      await run(sql, params);
    },
    async query<T>(sql: string, params?: QueryParams) {
      return parseRows<T>(await run(sql, params));
    },
    async *stream<T>(sql: string, params: QueryParams = {}) {
      while (streaming) await streaming;
      let release = () => {};
      streaming = new Promise<void>((resolve) => {
        release = resolve;
      });
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
        idle = undefined;
        const chunks = session.queryStreamBind(sql, params, { format: 'JSONEachRow' });
        for await (const chunk of chunks) yield parseRows<T>(chunk.text());
      } finally {
        streaming = undefined;
        release();
      }
    },
    async insert(table, rows) {
      if (!IDENTIFIER.test(table)) throw new Error(`insert: bad table name ${table}`);
      if (rows.length === 0) return;
      const payload = Buffer.from(`${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
      await exclusive(() => session.insert({ table, values: payload, format: 'JSONEachRow' }));
    },
    async insertJsonLines(table, text) {
      if (!IDENTIFIER.test(table)) throw new Error(`insert: bad table name ${table}`);
      if (text.trim() === '') return;
      const payload = Buffer.from(text);
      await exclusive(() => session.insert({ table, values: payload, format: 'JSONEachRow' }));
    },
    async ping() {
      await run('SELECT 1');
    },
    async close() {
      session.close();
    },
  };
}
