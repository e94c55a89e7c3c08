import { createClient } from '@clickhouse/client';
import { checkParams } from './params';
import type { AnalyticsStore, QueryParams } from './types';

export interface ClickHouseOptions {
  url: string;
  username: string;
  password: string;
  database: string;
  /** How long one request may take (the client's default is 30 s; the migration step's copies take longer). */
  requestTimeoutMs?: number;
}

/** A ClickHouse server over HTTP (@clickhouse/client); the database is created if missing. */
export async function openClickHouseStore(opts: ClickHouseOptions): Promise<AnalyticsStore> {
  const settings = {
    output_format_json_quote_64bit_integers: 0 as const,
    date_time_input_format: 'best_effort' as const,
  };
  const bootstrap = createClient({ url: opts.url, username: opts.username, password: opts.password });
  try {
    // An identifier cannot be a query parameter; config.ts allows only [A-Za-z0-9_] here.
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}` });
  } finally {
    await bootstrap.close();
  }
  const client = createClient({
    url: opts.url,
    username: opts.username,
    password: opts.password,
    database: opts.database,
    clickhouse_settings: settings,
    ...(opts.requestTimeoutMs ? { request_timeout: opts.requestTimeoutMs } : {}),
  });
  return {
    kind: 'clickhouse',
    async exec(sql: string, params?: QueryParams) {
      checkParams(params);
      await client.command({ query: sql, query_params: params ?? {} });
    },
    async query<T>(sql: string, params?: QueryParams) {
      checkParams(params);
      const result = await client.query({ query: sql, query_params: params ?? {}, format: 'JSONEachRow' });
      return result.json<T>();
    },
    async *stream<T>(sql: string, params?: QueryParams) {
      checkParams(params);
      const result = await client.query({ query: sql, query_params: params ?? {}, format: 'JSONEachRow' });
      for await (const rows of result.stream<T>()) yield rows.map((row) => row.json<T>());
    },
    async insert(table, rows) {
      if (rows.length === 0) return;
      await client.insert({ table, values: rows as object[], format: 'JSONEachRow' });
    },
    async insertJsonLines(table, text) {
      const rows = text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as object);
      if (rows.length > 0) await client.insert({ table, values: rows, format: 'JSONEachRow' });
    },
    async ping() {
      const result = await client.ping();
      if (!result.success) throw result.error;
    },
    async close() {
      await client.close();
    },
  };
}
