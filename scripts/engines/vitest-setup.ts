// vitest globalSetup: serves the run's engines to the test files. Nothing starts here: a test file that needs an
// engine asks for it (`engine()` of @nudge/platform/testing/engines) over a loopback HTTP endpoint, and the first ask
// installs (when the cache lacks it) and starts it; later asks share it. So a run of unit tests starts nothing.
// Vitest calls this once per project of the run; the endpoint and the engines are shared and stopped after the last.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { acquire, ENGINE_NAMES, type EngineName, stopAll } from './pool';

interface Shared {
  server: Server;
  url: string;
  users: number;
}
const KEY = Symbol.for('nudge.engines.endpoint');
const holder = globalThis as unknown as Record<symbol, Promise<Shared> | undefined>;

async function open(): Promise<Shared> {
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '').slice(1)) as EngineName;
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!ENGINE_NAMES.includes(name)) return answer(404, { reason: `unknown engine '${name}'` });
    acquire(name).then(
      (engine) => answer(200, engine),
      (err: unknown) => answer(503, { reason: err instanceof Error ? err.message : String(err) }),
    );
  });
  // An install can take minutes: no request timeout.
  server.requestTimeout = 0;
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, users: 0 };
}

export default async function setup(project: TestProject) {
  holder[KEY] ??= open();
  const shared = await holder[KEY];
  shared.users += 1;
  project.provide('nudgeEngines', shared.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    holder[KEY] = undefined;
    await new Promise((resolve) => shared.server.close(resolve));
    await stopAll();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    nudgeEngines: string;
  }
}
