/** What a scenario's setup receives: the gateway of a running standalone process. */
export interface BenchContext {
  /** The gateway's base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Reporting's ClickHouse (chDB in the standalone process), for seeding with ClickHouse's own generators. */
  analytics?: {
    exec(sql: string, params?: Record<string, unknown>): Promise<void>;
    query<T>(sql: string, params?: Record<string, unknown>): Promise<T[]>;
  };
}

/** The one request a scenario sends, over and over, for the whole measurement. */
export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path (and query) on the gateway, e.g. /api/user/isauth */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is sent as JSON (with content-type application/json). */
  body?: unknown;
  /** Instead of one body: the JSON body of the i-th request (0-based, counted across all connections). */
  bodies?: (i: number) => unknown;
  /** Items one request carries (a batch of events): the table then also shows items per second. */
  itemsPerRequest?: number;
  /** Runs after the measurement with the number of 2xx answers (warm-up included); throws when something was lost. */
  verify?: (answered2xx: number) => Promise<void>;
}

export interface Scenario {
  name: string;
  /** Prepares whatever the request needs (users, tokens, content) through the public API, then describes it. */
  setup(ctx: BenchContext): Promise<BenchRequest>;
}
