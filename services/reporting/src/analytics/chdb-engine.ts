import { mkdir } from 'node:fs/promises';
import type { QueryParams } from './types';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A table name for an insert (it cannot be a query parameter). */
export const checkTable = (table: string): string => {
  if (!IDENTIFIER.test(table)) throw new Error(`insert: bad table name ${table}`);
  return table;
};

/** JSONEachRow text as rows. */
export const parseRows = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

/** The chDB engine at text level: what the engine's own process runs (chdb-server.ts). */
export interface ChdbEngine {
  /** One statement; its result as JSONEachRow text. */
  run(sql: string, params?: QueryParams): Promise<string>;
  /** A result chunk by chunk (JSONEachRow text each), without holding the whole result. */
  stream(sql: string, params?: QueryParams): AsyncGenerator<string, void, undefined>;
  /** JSON lines into a table, as they are. */
  insertText(table: string, text: string): Promise<void>;
  close(): void;
}

/**
 * chDB (ClickHouse as a library) on `dir`. Only the engine's own process opens it (libchdb binds one data
 * directory per process, and its code and caches are several hundred MB): the services reach it through
 * chdb.ts, which runs this in a child process.
 */
export async function openChdbEngine(dir: string): Promise<ChdbEngine> {
  await mkdir(dir, { recursive: true });
  const { Session } = await import('chdb');
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
    run,
    async *stream(sql: string, params: QueryParams = {}) {
      while (streaming) await streaming;
      let release = () => {};
      streaming = new Promise<void>((resolve) => {
        release = resolve;
      });
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
        idle = undefined;
        const chunks = session.queryStreamBind(sql, params, { format: 'JSONEachRow' });
        for await (const chunk of chunks) yield chunk.text();
      } finally {
        streaming = undefined;
        release();
      }
    },
    async insertText(table, text) {
      checkTable(table);
      if (text.trim() === '') return;
      const payload = Buffer.from(text);
      await exclusive(() => session.insert({ table, values: payload, format: 'JSONEachRow' }));
    },
    close() {
      session.close();
    },
  };
}
