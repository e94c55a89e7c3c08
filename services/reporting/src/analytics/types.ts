/**
 * The analytics port: ClickHouse everywhere. Two adapters run the same SQL text: chDB (ClickHouse as a library, in
 * its own child process: the embedded topology) and a ClickHouse server through @clickhouse/client. Values never enter the SQL text:
 * they are engine query parameters ({name:Type}) on both adapters.
 */
export type QueryParams = Record<string, unknown>;

export interface AnalyticsStore {
  readonly kind: 'chdb' | 'clickhouse';
  /** A statement without a result (DDL, INSERT ... SELECT). */
  exec(sql: string, params?: QueryParams): Promise<void>;
  /** Rows as objects (JSONEachRow); 64-bit integers come back as numbers. */
  query<T>(sql: string, params?: QueryParams): Promise<T[]>;
  /** Rows as objects, chunk by chunk, without holding the whole result. */
  stream<T>(sql: string, params?: QueryParams): AsyncIterable<T[]>;
  /** Appends rows (objects keyed by column) to a table in one insert. */
  insert(table: string, rows: readonly object[]): Promise<void>;
  /** Appends rows given as JSON lines (JSONEachRow text, one object a line) without parsing them in JS. */
  insertJsonLines(table: string, text: string): Promise<void>;
  ping(): Promise<void>;
  /**
   * The engine's own process (chDB runs in a child process), its id and resident memory; absent for a server; null
   * while no engine process runs (stopped for being idle).
   */
  engineProcess?(): Promise<{ pid: number; rssBytes: number } | null>;
  close(): Promise<void>;
}
