import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testStandaloneEnv } from './helpers';
import { type StandaloneProcess, spawnStandalone } from './standalone-process';

// Where `npm start` listens: on 127.0.0.1 unless HOST opens it, and then the dev outbox (every sign-in code) still
// answers only callers on this machine. "Another machine" is this machine's own network address: a connection to it
// comes from that address, not from loopback.

const lan = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
if (!lan) console.log('listen-address: skipped, this machine has no network address besides loopback');

const dirs: string[] = [];
const processes: StandaloneProcess[] = [];
afterAll(async () => {
  for (const p of processes) await p.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-listen-'));
  dirs.push(dir);
  const proc = await spawnStandalone(testStandaloneEnv(dir, extra));
  processes.push(proc);
  return { proc, port: new URL(proc.url).port };
}

/** The status of a GET, or the error code when no connection could be made. */
const statusOf = (url: string) =>
  fetch(url).then(
    (r) => r.status,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
  );

describe.skipIf(!lan)('the listen address of npm start', () => {
  it('listens on 127.0.0.1 by default: the network address is refused', async () => {
    const { port } = await start();
    expect(await statusOf(`http://127.0.0.1:${port}/api/topic/getalltopics`)).toBe(200);
    expect(await statusOf(`http://${lan}:${port}/api/topic/getalltopics`)).toBe('ECONNREFUSED');
  }, 180_000);

  it('HOST=0.0.0.0 opens the API to the network, but not the dev outbox unless DEV_OUTBOX_REMOTE=on', async () => {
    const { port } = await start({ HOST: '0.0.0.0' });
    expect(await statusOf(`http://${lan}:${port}/api/topic/getalltopics`)).toBe(200);
    const remote = await fetch(`http://${lan}:${port}/api/dev/outbox`);
    expect(remote.status).toBe(403);
    expect((await remote.json()).message).toContain('DEV_OUTBOX_REMOTE=on');
    expect(await statusOf(`http://127.0.0.1:${port}/api/dev/outbox`)).toBe(200);

    const opened = await start({ HOST: '0.0.0.0', DEV_OUTBOX_REMOTE: 'on' });
    expect(await statusOf(`http://${lan}:${opened.port}/api/dev/outbox`)).toBe(200);
  }, 180_000);
});
