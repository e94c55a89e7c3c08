import { AsyncLocalStorage } from 'node:async_hooks';

/** What travels with one request: gateway -> service -> event meta. */
export interface RequestContext {
  requestId: string;
  actor?: string | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const runWithContext = <T>(ctx: RequestContext, fn: () => T): T => storage.run(ctx, fn);
export const currentContext = (): RequestContext | undefined => storage.getStore();
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
