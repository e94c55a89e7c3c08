import type { ServiceName } from '@nudge/contracts';
import { tracedHeaders } from '@nudge/platform';

/** A refused internal call (4xx): retrying cannot help (Temporal: a non-retryable failure). */
export class BusinessRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'BusinessRefusal';
  }
}

/** A service that is down, slow or failing (5xx, timeout): worth retrying. */
export class ServiceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceUnavailable';
  }
}

export type InternalCall = <T>(
  service: ServiceName,
  path: string,
  body: unknown,
  timeoutMs?: number,
) => Promise<T>;

/**
 * POST {service url}{path} with the internal credential. The URLs are read at call time (the standalone process
 * fills them in as services start).
 */
export function createInternalCall(opts: {
  serviceUrls: Partial<Record<ServiceName, string>>;
  internalToken: string;
}): InternalCall {
  return async <T>(service: ServiceName, path: string, body: unknown, timeoutMs = 30_000): Promise<T> => {
    const base = opts.serviceUrls[service];
    if (!base) throw new ServiceUnavailable(`the ${service} service URL is not configured`);
    let res: Response;
    try {
      res = await fetch(`${base.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        headers: tracedHeaders({
          'content-type': 'application/json',
          'x-internal-token': opts.internalToken,
        }),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ServiceUnavailable(`${service} did not answer ${path}`, { cause: err });
    }
    const json = (await res.json().catch(() => null)) as { message?: unknown } | null;
    if (res.status >= 400 && res.status < 500) {
      throw new BusinessRefusal(`${service} ${path}: ${String(json?.message ?? res.status)}`, res.status);
    }
    if (!res.ok || !json) throw new ServiceUnavailable(`${service} ${path} answered ${res.status}`);
    return json as T;
  };
}
