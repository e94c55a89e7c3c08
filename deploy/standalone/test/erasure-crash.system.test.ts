import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonCall } from '@nudge/platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startStandalone } from '../src/index';
import { testStandaloneEnv } from './helpers';

// A deletion is a durable process, not one request: the standalone process is killed (SIGKILL) with a deletion in
// flight, and right after one was acknowledged (before the other services heard of it); started again, each
// deletion completes: the session refused, every service's copy erased, nothing of the readers in any file.

const child = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crash-child.ts');
const INTERNAL_TOKEN = randomBytes(24).toString('hex');
let dataDir = '';
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, CRASH_DATA_DIR: dataDir, VERIFY: '0', INTERNAL_SERVICE_TOKEN: INTERNAL_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  children.push(proc);
  let buffer = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the standalone process did not come up in 120 s')),
      120_000,
    );
    proc.on('exit', (code) => reject(new Error(`the standalone process exited (${code}) before it was up`)));
    proc.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('UP '));
      if (line) {
        clearTimeout(timer);
        resolve({ proc, url: JSON.parse(line.slice(3)).url });
      }
    });
  });
}
async function kill(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  if (proc.pid) process.kill(-proc.pid, 'SIGKILL');
  await exited;
}

const READERS = [
  { email: 'inflight.rosalind@example.com', first: 'Rosalindara', when: 'in flight' },
  { email: 'acked.theodric@example.com', first: 'Theodricsen', when: 'acknowledged' },
] as const;

async function leaks(dir: string, secrets: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const text = (await readFile(join(entry.parentPath, entry.name)).catch(() => Buffer.alloc(0))).toString(
      'latin1',
    );
    for (const s of secrets) if (text.includes(s)) found.push(`${s} in ${entry.name}`);
  }
  return found;
}

describe('a deletion interrupted by a crash completes after a restart', () => {
  it('killed with a deletion in flight and right after one was acknowledged: both complete', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'nudge-erase-crash-'));
    let running = await start();
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      jsonCall(running.url, method, path, body, token);
    const admin = await signIn('admin@example.com');
    await until(
      async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
    );
    await call('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
    const topic = (await call('GET', '/api/topic/getalltopics')).body.topics[0]._id;
    const post = (
      await call(
        'POST',
        '/api/template/add',
        { heading: 'Breathe', body: 'Slowly.', subject: '', subjects: [], topic, status: true, type: 0 },
        admin.token,
      )
    ).body.template._id as string;

    async function signIn(email: string) {
      await call('POST', '/api/user/auth', { email });
      const outbox = (await call('GET', '/api/dev/outbox')).body.messages as Array<{
        to: string;
        text: string;
      }>;
      const otp = outbox.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
      const { body } = await call('POST', '/api/user/verify', { email, otp });
      return { token: body.token as string, id: body.user._id as string };
    }
    async function until(check: () => Promise<boolean>, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (!(await check().catch(() => false))) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const namesOnComments = async () =>
      ((await call('GET', `/api/comment/comments/${post}`)).body.comments ?? []).map(
        (c: { userDetails: { firstname: string } }) => c.userDetails.firstname,
      );

    const readers = [];
    for (const r of READERS) {
      const s = await signIn(r.email);
      await call('POST', '/api/user/updatename', { firstname: r.first, lastname: 'Vexley' }, s.token);
      await call('POST', '/api/comment/add', { templateid: post, message: `From ${r.when}.` }, s.token);
      readers.push({ ...r, ...s });
    }
    await until(async () => {
      const names = await namesOnComments();
      return READERS.every((r) => names.includes(r.first));
    });

    for (const reader of readers) {
      const deletion = call('POST', '/api/user/deleteaccount', { confirm: 'DELETE' }, reader.token).catch(
        () => ({ status: 0 }),
      );
      if (reader.when === 'in flight') {
        await new Promise((r) => setTimeout(r, 5));
        await kill(running.proc);
        await deletion;
      } else {
        expect((await deletion).status).toBe(200);
        await kill(running.proc);
      }
      running = await start();
      // A deletion that never got in is asked again, as the reader would (the first may have gone through).
      if ((await call('POST', '/api/user/isauth', {}, reader.token)).status === 200)
        expect(
          (await call('POST', '/api/user/deleteaccount', { confirm: 'DELETE' }, reader.token)).status,
        ).toBe(200);
      expect((await call('POST', '/api/user/isauth', {}, reader.token)).status).toBe(401);
      // Auth refuses the session at once; the other services once the deletion reaches them on the bus (after a
      // restart, when the relay has published what the crash left).
      await until(
        async () =>
          (await call('POST', '/api/like/add', { templateid: post, status: true }, reader.token)).status ===
          401,
      );
    }
    // Every service heard of both: the comments are from "a former reader".
    await until(async () => {
      const names = await namesOnComments();
      return names.length === 2 && names.every((n: string) => n === 'a former reader');
    });
    await kill(running.proc);

    // Started and stopped cleanly once more: nothing of either reader in any file.
    const app = await startStandalone(testStandaloneEnv(dataDir, { INTERNAL_SERVICE_TOKEN: INTERNAL_TOKEN }));
    await app.close();
    expect(
      await leaks(
        dataDir,
        READERS.flatMap((r) => [r.email, r.first]),
      ),
    ).toEqual([]);
  }, 300_000);
});
