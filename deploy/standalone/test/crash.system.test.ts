import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Crash suite: mixed commands through the gateway of the standalone process, with some concurrency;
// SIGKILL of the process group at three points (20%, 50%, 80% of the commands), a start on the same data directory
// after each. After every restart: each command that got a 2xx has its effect, every event reached every consumer
// exactly once in effect (content's counts = engagement's, the user directories = auth's users), and every read model
// equals a rebuild from its event store (the child checks the last two on its stores; see fixtures/crash-child.ts).
// CRASH_COMMANDS sets the size (default 1,000; e.g. CRASH_COMMANDS=5000 for a longer run).

const COMMANDS = Number(process.env.CRASH_COMMANDS ?? 1000);
const CONCURRENCY = Number(process.env.CRASH_CONCURRENCY ?? 8);
const KILL_AT = [0.2, 0.5, 0.8];
const POSTS = 6;
const INTERNAL_TOKEN = randomBytes(24).toString('hex');
const child = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'crash-child.ts');

let dataDir = '';
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Up {
  url: string;
  serviceUrls: Record<string, string>;
}
interface Running {
  proc: ChildProcess;
  up: Up;
  verify?: { problems: string[]; convergedMs: number };
}

/** Starts the child in its own process group (so the kill takes everything it started) and waits for UP. */
async function start(verify: boolean): Promise<Running> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: {
      ...process.env,
      CRASH_DATA_DIR: dataDir,
      VERIFY: verify ? '1' : '0',
      INTERNAL_SERVICE_TOKEN: INTERNAL_TOKEN,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  children.push(proc);
  let buffer = '';
  let verifyLine: Running['verify'];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the standalone process did not come up in 120 s')),
      120_000,
    );
    proc.on('exit', (code) => reject(new Error(`the standalone process exited (${code}) before it was up`)));
    proc.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (;;) {
        const nl = buffer.indexOf('\n');
        if (nl < 0) break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('VERIFY ')) verifyLine = JSON.parse(line.slice(7));
        if (line.startsWith('UP ')) {
          clearTimeout(timer);
          resolve({ proc, up: JSON.parse(line.slice(3)), ...(verifyLine ? { verify: verifyLine } : {}) });
        }
      }
    });
  });
}

async function killGroup(running: Running): Promise<void> {
  const exited = new Promise((r) => running.proc.once('exit', r));
  if (running.proc.pid) process.kill(-running.proc.pid, 'SIGKILL');
  await exited;
}

type Reply = { status: number; body: any };
class Down extends Error {}

let current: Running;
/** Resolves when the process is up again after a kill. */
let upAgain: Promise<void> = Promise.resolve();

async function call(method: string, path: string, body?: unknown, token?: string): Promise<Reply> {
  let res: Response;
  try {
    res = await fetch(`${current.up.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Down();
  }
  const text = await res.text().catch(() => {
    throw new Down();
  });
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed };
}
const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await call(method, path, body, token);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

// What the run saw.
const tally = { driven: 0, acknowledged: 0, unanswered: 0, refused: 0, serverErrors: [] as string[] };
const kinds: Record<string, number> = {};
const refusals: string[] = [];
interface Reader {
  email: string;
  token?: string;
  id?: string;
  named: boolean;
  /** Like state per post whose last like command was acknowledged; a post whose command got no answer is unknown. */
  likes: Map<string, boolean | 'unknown'>;
  reads: Set<string>;
  premium: boolean;
}
const comments: { id: string; post: string; message: string }[] = [];
const answeredCheckins: string[] = [];

describe('crash suite: SIGKILL in the middle of mixed commands', () => {
  it(`${COMMANDS} commands, killed at ${KILL_AT.map((k) => `${k * 100}%`).join(', ')}: nothing acknowledged is lost`, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'nudge-crash-mixed-'));
    current = await start(false);

    // Setup (not counted): an admin, a topic, posts, a check-in question.
    await ok('POST', '/api/user/auth', { email: 'admin@example.com' });
    const code = (await ok('GET', '/api/dev/outbox')).messages[0].text.match(/\b(\d{6})\b/)[1];
    const admin = (await ok('POST', '/api/user/verify', { email: 'admin@example.com', otp: code }))
      .token as string;
    const deadline = Date.now() + 30_000;
    while ((await call('GET', '/api/template/alltemplates', undefined, admin)).status !== 200) {
      if (Date.now() > deadline) throw new Error('content never knew the admin');
      await new Promise((r) => setTimeout(r, 50));
    }
    await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const posts: string[] = [];
    for (let i = 0; i < POSTS; i++) {
      const body = {
        heading: `Post ${i}`,
        body: `Body ${i}`,
        subject: '',
        subjects: [],
        topic,
        status: true,
        type: 0,
      };
      posts.push((await ok('POST', '/api/template/add', body, admin)).template._id);
    }
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0, tags: [] },
      admin,
    );

    // The commands: each reader signs up, then runs its own commands one after another (readers run concurrently).
    const perReader = 10;
    const readers: Reader[] = Array.from({ length: Math.ceil(COMMANDS / perReader) }, (_, i) => ({
      email: `crash-${i}@example.com`,
      named: false,
      likes: new Map(),
      reads: new Set(),
      premium: false,
    }));
    const killPoints = KILL_AT.map((f) => Math.floor(COMMANDS * f));
    const killLog: string[] = [];
    let restarting = false;
    /** A check that failed at a restart: the workers stop and the test fails with it. */
    let failure: unknown;

    const maybeKill = async () => {
      const next = killPoints[0];
      if (next === undefined || tally.driven < next || restarting) return;
      killPoints.shift();
      restarting = true;
      let release: () => void = () => {};
      upAgain = new Promise((r) => {
        release = r;
      });
      const acknowledgedBefore = tally.acknowledged;
      try {
        await killGroup(current);
        await writeAckedCheckins();
        current = await start(true);
        killLog.push(
          `killed after ${tally.driven} commands driven (${acknowledgedBefore} acknowledged); restart converged in ${current.verify?.convergedMs} ms`,
        );
        expect(current.verify?.problems, 'the restarted process’s own checks').toEqual([]);
        await checkAcknowledged(readers, posts);
      } catch (err) {
        failure ??= err;
      } finally {
        restarting = false;
        release();
      }
    };

    /** Runs one command: counts it, and tells whether it was acknowledged (2xx), refused, or got no answer. */
    const command = async (
      kind: string,
      run: () => Promise<Reply>,
      note?: string,
    ): Promise<{ acked: boolean; reply?: Reply }> => {
      await upAgain;
      if (failure) throw failure;
      tally.driven += 1;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      void maybeKill();
      try {
        const reply = await run();
        if (reply.status >= 200 && reply.status < 300) {
          tally.acknowledged += 1;
          return { acked: true, reply };
        }
        if (reply.status >= 500 && !restarting)
          tally.serverErrors.push(`${kind}: ${reply.status} ${JSON.stringify(reply.body)}`);
        tally.refused += 1;
        refusals.push(
          `${kind}${note ? ` (${note})` : ''}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`,
        );
        return { acked: false, reply };
      } catch (err) {
        if (!(err instanceof Down)) throw err;
        tally.unanswered += 1;
        return { acked: false };
      }
    };

    let checkoutDone = false;
    const runReader = async (r: Reader, index: number) => {
      // Sign-up: code, verify, names (one command; acknowledged when all three are). One that got no answer (a kill)
      // is tried again, as the reader would.
      for (let attempt = 0; !r.token && attempt < 5; attempt++) await signUp(r, index);
      if (!r.token) return;
      await commands(r, index);
    };
    const signUp = (r: Reader, index: number) =>
      command('sign-up', async () => {
        const sent = await call('POST', '/api/user/auth', { email: r.email });
        if (sent.status !== 200) return sent;
        const outbox = await call('GET', '/api/dev/outbox?limit=500');
        const message = outbox.body.messages?.find((m: { to: string }) => m.to === r.email);
        const otp = message?.text.match(/\b(\d{6})\b/)?.[1];
        const verified = await call('POST', '/api/user/verify', { email: r.email, otp });
        if (verified.status !== 200) return verified;
        r.token = verified.body.token;
        r.id = verified.body.user._id;
        const named = await call('POST', '/api/user/update', {
          email: r.email,
          token: r.token,
          info: { ageConfirmed: true, email: r.email, firstname: 'Rae', lastname: `Reader${index}` },
        });
        if (named.status === 200) r.named = true;
        return named;
      });
    const commands = async (r: Reader, index: number) => {
      for (let i = 1; i < perReader; i++) {
        const post = posts[(index + i) % posts.length] as string;
        const pick = (index * 7 + i * 3) % 10;
        if (pick < 4) {
          const status = (index + i) % 3 !== 0;
          r.likes.set(post, 'unknown');
          const { acked } = await command('like', () =>
            call('POST', '/api/like/add', { templateid: post, status }, r.token),
          );
          if (acked) r.likes.set(post, status);
        } else if (pick < 6) {
          const message = `comment ${index}.${i}`;
          const { acked, reply } = await command(
            'comment',
            () => call('POST', '/api/comment/add', { templateid: post, message }, r.token),
            r.named ? 'name acknowledged' : 'name not acknowledged',
          );
          if (acked) comments.push({ id: reply?.body.comment._id, post, message });
        } else if (pick < 8) {
          const { acked } = await command('read', () => call('POST', `/api/template/${post}`, {}, r.token));
          if (acked) r.reads.add(post);
        } else if (pick < 9 || checkoutDone) {
          const { acked, reply } = await command('check-in answer', async () => {
            let issued: Response;
            try {
              issued = await fetch(`${current.up.serviceUrls.engagement}/internal/checkin/issue`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
                body: JSON.stringify({ userId: r.id }),
              });
            } catch {
              throw new Down();
            }
            const body = (await issued.json().catch(() => null)) as any;
            if (issued.status !== 200) return { status: issued.status, body };
            const link = new URL(body.links[0].url);
            const answered = await call('POST', `/api/checkin${link.search}`);
            return { ...answered, body: { ...answered.body, qlid: body.qlid } };
          });
          if (acked && reply?.body.qlid) answeredCheckins.push(reply.body.qlid);
        } else {
          checkoutDone = true;
          const { acked } = await command('checkout', async () => {
            const checkout = await call('POST', '/api/payment/checkout', {}, r.token);
            if (checkout.status !== 200) return checkout;
            let paid: Response;
            try {
              paid = await fetch(new URL(checkout.body.checkoutUrl, current.up.url), {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: 'outcome=pay',
                redirect: 'manual',
              });
            } catch {
              throw new Down();
            }
            return { status: paid.status === 303 ? 200 : paid.status, body: await paid.text() };
          });
          if (acked) r.premium = true;
        }
      }
    };

    const queue = readers.map((r, i) => [r, i] as const);
    await Promise.allSettled(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let next = queue.shift(); next && !failure; next = queue.shift()) await runReader(...next);
      }),
    ).then((results) => {
      for (const r of results) if (r.status === 'rejected') failure ??= r.reason;
    });
    await upAgain;
    if (failure) {
      console.log(
        `[system] crash suite FAILED after ${tally.driven} commands driven, ${tally.acknowledged} acknowledged`,
      );
      throw failure;
    }

    // A last restart (a clean stop is not what a crash test needs: kill once more, after everything).
    await killGroup(current);
    await writeAckedCheckins();
    current = await start(true);
    expect(current.verify?.problems, 'the final restart’s own checks').toEqual([]);
    await checkAcknowledged(readers, posts);

    const lost = lostCount;
    console.log(
      `[system] crash suite: ${tally.driven} commands driven (${Object.entries(kinds)
        .map(([k, n]) => `${n} ${k}`)
        .join(
          ', ',
        )}), ${tally.acknowledged} acknowledged, ${tally.unanswered} without an answer (in flight at a kill), ${tally.refused} refused, ${lost} acknowledged and lost\n  ${killLog.join('\n  ')}${refusals.length ? `\n  refused: ${refusals.join('\n  refused: ')}` : ''}`,
    );
    expect(killLog).toHaveLength(KILL_AT.length);
    expect(tally.serverErrors).toEqual([]);
    // A reader whose name was saved (200) may comment at once, whatever the bus's lag.
    expect(refusals.filter((r) => r.includes('(name acknowledged)'))).toEqual([]);
    expect(lost).toBe(0);
    expect(tally.driven).toBeGreaterThanOrEqual(COMMANDS * 0.9);
    await killGroup(current);
  }, 900_000);
});

let lostCount = 0;
/** Answered check-ins are checked by the child on engagement's store when it starts (their links' qlids). */
const writeAckedCheckins = () =>
  writeFile(join(dataDir, 'acked-checkins.json'), JSON.stringify(answeredCheckins));

/** Every acknowledged command's effect, read back through the gateway (what the reader would see). */
async function checkAcknowledged(readers: Reader[], posts: string[]): Promise<void> {
  const lost: string[] = [];
  for (const r of readers) {
    if (!r.token) continue;
    const me = await ok('POST', '/api/user/isauth', { token: r.token });
    if (r.named && me.user?.firstname !== 'Rae') lost.push(`${r.email}: the acknowledged name is gone`);
    if (r.premium && me.user?.role !== 'premium') lost.push(`${r.email}: paid, but is not premium`);
    const liked = new Set<string>(
      (await ok('POST', '/api/like/getalllikedpost?page=1&limit=50', {}, r.token)).templates?.map(
        (t: { templateid: string }) => t.templateid,
      ) ?? [],
    );
    for (const [post, state] of r.likes) {
      if (state === 'unknown') continue;
      if (liked.has(post) !== state)
        lost.push(`${r.email}: post ${post} should be ${state ? 'liked' : 'not liked'}`);
    }
    if (r.reads.size > 0) {
      const history = JSON.stringify(await ok('POST', '/api/history/getuserhistory', {}, r.token));
      for (const post of r.reads)
        if (!history.includes(post)) lost.push(`${r.email}: read ${post} missing from history`);
    }
  }
  for (const post of posts) {
    let listed = '';
    for (let page = 1; ; page++) {
      const reply = await ok('GET', `/api/comment/comments/${post}?page=${page}&limit=50`);
      listed += JSON.stringify(reply.comments);
      if (!reply.comments?.length || page > 1000) break;
    }
    for (const c of comments)
      if (c.post === post && !listed.includes(c.id)) lost.push(`comment ${c.id} is gone`);
  }
  lostCount = lost.length;
  expect(lost, 'acknowledged commands whose effect is missing').toEqual([]);
}
