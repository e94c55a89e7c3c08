// Graceful shutdown: a rolling restart of the standalone process under continuous writes loses no accepted
// request. Process A gets SIGTERM while writers keep calling; B starts on the same port and DATA_DIR once A is gone.
// Every request either gets a 2xx or is refused before any byte of an answer (the listener is closed), never a 5xx or a
// connection dropped after it was accepted; every acknowledged write is there after the restart; A and B exit 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@nudge/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
let dataDir: string;
let port: number;
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Starts `npm start`'s entry file; resolves once it says it is running. */
async function startProcess(): Promise<ChildProcess> {
  const child = spawn('node', ['--import', 'tsx', 'deploy/standalone/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAILS: 'admin@example.com',
      REMINDER_SCHEDULER: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
      SHUTDOWN_TIMEOUT_MS: '15000',
      WEB_DIST: join(dataDir, 'none'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((ready, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Nudge is running')) ready();
    });
    child.once('exit', (code) => fail(new Error(`the process exited (${code}) before it ran:\n${output}`)));
  });
  return child;
}

type Outcome = { status: number; body: string } | { error: string; answered: boolean };

/** One request on a connection of its own (no keep-alive), optionally sending the body in two halves. */
function call(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  between?: () => Promise<void>,
): Promise<Outcome> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  return new Promise((done) => {
    let answered = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message, answered }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message, answered }));
    if (!between) {
      req.end(payload);
      return;
    }
    const half = Math.floor(payload.length / 2);
    req.write(payload.slice(0, half));
    between().then(() => req.end(payload.slice(half)));
  });
}

async function json(method: string, path: string, body?: unknown, token?: string) {
  const outcome = await call(method, path, body, token);
  if (!('status' in outcome) || outcome.status >= 300)
    throw new Error(`${method} ${path}: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.body);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : (once(child, 'exit') as Promise<[number | null]>).then(([code]) => code);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-rolling-'));
  port = await freePort();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

it('loses no accepted request across a rolling restart of the standalone process', {
  timeout: 300_000,
}, async () => {
  const a = await startProcess();
  await json('POST', '/api/user/auth', { email: 'admin@example.com' });
  const outbox = await json('GET', '/api/dev/outbox');
  const otp = outbox.messages[0].text.match(/\b(\d{6})\b/)[1];
  const { token } = await json('POST', '/api/user/verify', { email: 'admin@example.com', otp });

  const results: { topic: string; outcome: Outcome; phase: 'a' | 'gap' | 'b' }[] = [];
  let phase: 'a' | 'gap' | 'b' = 'a';
  let writing = true;
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      const topic = `w${w}-${i}`;
      const at = phase;
      let outcome = await call('POST', '/api/topic/add', { topic }, token);
      // Topics share one stream: concurrent adds meet its optimistic lock (409, nothing written); retry those.
      while ('status' in outcome && outcome.status === 409)
        outcome = await call('POST', '/api/topic/add', { topic }, token);
      results.push({ topic, outcome, phase: at });
      // While nothing listens, do not spin.
      if ('error' in outcome) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const acked = () => results.filter((r) => 'status' in r.outcome && r.outcome.status === 200);
  const writers = [0, 1, 2, 3].map(writer);
  await until(() => acked().length >= 20, 'twenty writes acknowledged', 60_000);

  // A request in flight when SIGTERM arrives: half its body before, half after; it must still be answered.
  let signalled = 0;
  const inFlight = call('POST', '/api/topic/add', { topic: 'in-flight at SIGTERM' }, token, async () => {
    await new Promise((r) => setTimeout(r, 200));
    phase = 'gap';
    signalled = Date.now();
    a.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
  });
  const slow = await inFlight;
  expect(slow).toMatchObject({ status: 200 });
  expect(await exited(a)).toBe(0);
  const stoppedMs = Date.now() - signalled;

  const b = await startProcess();
  phase = 'b';
  const before = acked().length;
  await until(() => acked().length >= before + 20, 'twenty writes acknowledged by the new process', 60_000);
  writing = false;
  await Promise.all(writers);

  const topics = new Set<string>(
    (await json('GET', '/api/topic/getalltopics')).topics.map((t: { topic: string }) => t.topic),
  );
  b.kill('SIGTERM');
  expect(await exited(b)).toBe(0);

  // Every answer is a 2xx; every failure is a connection refused or closed before any answer.
  const answers = results.filter((r) => 'status' in r.outcome);
  expect(answers.filter((r) => 'status' in r.outcome && r.outcome.status !== 200)).toEqual([]);
  const failures = results.filter((r) => 'error' in r.outcome);
  for (const f of failures) {
    expect(f.outcome).toMatchObject({ answered: false });
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain((f.outcome as { error: string }).error);
    // Refused before it was accepted: nothing was written for it.
    expect(topics.has(f.topic), `${f.topic} was written but its request failed`).toBe(false);
  }
  // Every acknowledged write survived the restart, the in-flight one included.
  const missing = acked().filter((r) => !topics.has(r.topic));
  expect(missing).toEqual([]);
  expect(topics.has('in-flight at SIGTERM')).toBe(true);
  // The restart happened under load: writes were acknowledged by both processes, refused in between.
  expect(acked().filter((r) => r.phase === 'a').length).toBeGreaterThanOrEqual(20);
  expect(acked().filter((r) => r.phase === 'b').length).toBeGreaterThanOrEqual(20);
  expect(failures.length).toBeGreaterThan(0);
  console.info(
    `rolling restart: ${acked().length} writes acknowledged, ${failures.length} refused ` +
      `(${failures.filter((f) => (f.outcome as { error: string }).error === 'ECONNRESET').length} reset before an answer); ` +
      `A stopped ${stoppedMs} ms after SIGTERM`,
  );
});
