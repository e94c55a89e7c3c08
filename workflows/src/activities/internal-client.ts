import type { ServiceName } from '@nudge/contracts';
import { createInternalClient } from '@nudge/platform';

export { BusinessRefusal, ServiceUnavailable } from '@nudge/platform';

export type InternalCall = <T>(
  service: ServiceName,
  path: string,
  body: unknown,
  timeoutMs?: number,
) => Promise<T>;

/**
 * POST {service url}{path} with the internal credential, over platform's shared keep-alive pool (a 4xx is a
 * BusinessRefusal, no answer or a 5xx a ServiceUnavailable). The URLs are read at call time (the standalone process
 * fills them in as services start).
 */
export function createInternalCall(opts: {
  serviceUrls: Partial<Record<ServiceName, string>>;
  internalToken: string;
}): InternalCall {
  const client = createInternalClient({ internalToken: opts.internalToken });
  return <T>(service: ServiceName, path: string, body: unknown, timeoutMs = 30_000): Promise<T> =>
    client.call<T>(service, opts.serviceUrls[service], path, { method: 'POST', body, timeoutMs });
}
