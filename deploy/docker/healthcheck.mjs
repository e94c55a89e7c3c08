// Container HEALTHCHECK (deploy/docker/Dockerfile): GET /healthz on this process's own port.
// The gateway listens on PORT, every service on SERVICE_PORT (services/platform/src/config.ts).
const entry = process.env.APP_ENTRY ?? '';
const port = entry.startsWith('gateway/') ? process.env.PORT || '8080' : process.env.SERVICE_PORT || '3000';

try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
