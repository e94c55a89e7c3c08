// The messages between the services' process (chdb.ts) and the analytics engine's process (chdb-server.ts), over
// the fork's IPC channel (advanced serialization: strings are copied, not JSON-escaped). Results are the engine's
// JSONEachRow text, parsed by the parent.
import type { QueryParams } from './types';

export type ParentMessage =
  | { op: 'run'; id: number; sql: string; params: QueryParams }
  | { op: 'insert'; id: number; table: string; text: string }
  | { op: 'stream'; id: number; sql: string; params: QueryParams }
  /** The parent took the last chunk of stream `id`: read the next one. */
  | { op: 'more'; id: number }
  | { op: 'cancel'; id: number }
  | { op: 'stats'; id: number }
  | { op: 'close'; id: number };

export type ChildMessage =
  | { kind: 'ready'; pid: number }
  | { kind: 'fatal'; error: string }
  | { kind: 'result'; id: number; text: string }
  | { kind: 'chunk'; id: number; text: string }
  | { kind: 'done'; id: number }
  | { kind: 'error'; id: number; error: string };
