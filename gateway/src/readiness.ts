import type { ServiceName } from '@nudge/contracts';

/**
 * A readiness probe for the gateway: each configured service answers its /healthz with 2xx in time.
 * Services without a URL are reported as not ready (they are not built or not configured yet).
 */
export function serviceReadiness(
  services: Partial<Record<ServiceName, string>>,
  timeoutMs = 2000,
): () => Promise<Record<string, boolean>> {
  return async () => {
    const entries = await Promise.all(
      Object.entries(services).map(async ([service, base]) => {
        if (!base) return [service, false] as const;
        try {
          const res = await fetch(new URL('/healthz', base), { signal: AbortSignal.timeout(timeoutMs) });
          await res.body?.cancel();
          return [service, res.ok] as const;
        } catch {
          return [service, false] as const;
        }
      }),
    );
    return Object.fromEntries(entries);
  };
}
