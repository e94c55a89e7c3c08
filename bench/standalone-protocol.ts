// Messages between the bench (bench/standalone-child.ts) and the standalone process it forks (bench/standalone-host.ts).

export type QueryParams = Record<string, unknown>;

export type HostRequest = { id: number } & (
  | { op: 'exec'; sql: string; params?: QueryParams }
  | { op: 'query'; sql: string; params?: QueryParams }
  | { op: 'profile-start' }
  | { op: 'profile-stop'; file: string }
  | { op: 'memory' }
  | { op: 'close' }
);

export type HostAnswer =
  | { kind: 'ready'; url: string; metricsUrl: string; analytics: boolean }
  | { kind: 'failed'; error: string }
  | { kind: 'answer'; id: number; value?: unknown; error?: string };

/** What the standalone process's memory consists of: V8's heap, external memory, the stores' documents. */
export interface MemoryBreakdown {
  /** process.memoryUsage() in MB, before and after a full garbage collection (and RssAnon/RssFile after it). */
  before: Record<string, number>;
  afterGc: Record<string, number>;
  /** Embedded collections holding the most (documents and their JSON size in MB), by service folder. */
  collections: Array<{ collection: string; docs: number; jsonMb: number }>;
  totalDocs: number;
  totalJsonMb: number;
}
