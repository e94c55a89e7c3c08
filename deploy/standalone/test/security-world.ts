import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICES, type ServiceName } from '@nudge/contracts';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

// The world the security suites (authorisation matrix, fuzz, burst) run against: one standalone process
// with an admin, a plain reader, a premium reader, a premium post whose body is a marker that must reach no one who
// may not read it, and one of each object a route can address (post, promotion, check-in question, report,
// comment), plus e-mail link tokens of each purpose.

/** The premium post's body: a marker the suites look for in every response to someone who may not read it. */
export const PREMIUM_SECRET = 'PREMIUM-SECRET-body-4f1c9e: the fifth breath decides.';

export type Identity =
  | 'anonymous'
  | 'user'
  | 'premium'
  | 'admin'
  | 'tampered'
  | 'signinLink'
  | 'unsubLink'
  | 'checkinLink';

/** Identities whose responses must never carry a premium post's body. */
export const MAY_NOT_READ_PREMIUM: ReadonlySet<Identity> = new Set([
  'anonymous',
  'user',
  'tampered',
  'signinLink',
  'unsubLink',
  'checkinLink',
]);

export interface World {
  app: Standalone;
  dataDir: string;
  internalToken: string;
  /** The credential each identity presents (as a bearer token, or in a link route's path or query). */
  credentials: Record<Identity, string>;
  ids: {
    admin: string;
    user: string;
    premium: string;
    /** A reader the admin routes may edit, revoke and otherwise spoil. */
    spare: string;
    topic: string;
    freePost: string;
    premiumPost: string;
    promotion: string;
    checkin: string;
    report: string;
    comment: string;
  };
  client: ReturnType<typeof gatewayClient>;
  /** A fresh session for a new reader: for calls that end their caller's sessions. */
  throwawaySession(): Promise<string>;
  close(): Promise<void>;
}

/** A session token whose payload claims the admin role, signed by no one (the user's signature kept). */
export function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8'));
  const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
  return `${header}.${forged}.${signature}`;
}

/** A loopback stand-in for the AI writer's OpenAI-compatible server: every chat completion answers one line. */
async function startFakeWriter(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-world',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'test-model',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Breathe out.' } },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/v1`, server };
}

export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nudge-security-'));
  const writer = await startFakeWriter();
  let app: Standalone | undefined;
  const client = gatewayClient(() => app as Standalone);
  const { ok, call, eventually, signIn } = client;
  app = await startStandalone(
    {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ADMIN_EMAILS: 'admin@example.com',
      WEB_DIST: join(dataDir, 'no-web'),
      // The suites send thousands of requests from one address; the per-IP limit is tested elsewhere.
      RATE_LIMIT_PER_MINUTE: '100000000',
      INTAKE_EVENTS_PER_MINUTE: '100000000',
      OPENAI_API_KEY: 'sk-world',
      OPENAI_BASE_URL: writer.url,
      ...env,
    },
    // A fixed clock: no reminder slot falls due while a suite compares event counts.
    { clock: () => new Date('2026-01-15T03:17:00Z') },
  );
  const internalToken = (
    await readFile(join(dataDir, 'keys', 'internal-service-token.secret'), 'utf8')
  ).trim();
  const internal = async (service: ServiceName, path: string, body: unknown) => {
    const res = await fetch(`${app?.serviceUrls[service]}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  const admin = await signIn('admin@example.com');
  const user = await signIn('user@example.com');
  const premium = await signIn('premium@example.com');
  const spare = await signIn('spare@example.com');
  await ok('POST', `/api/user/update/${premium.id}`, { info: { role: 'premium' } }, admin.token);
  // Every service knows the admin and the premium role before the suites start (their events travel by the bus).
  await eventually(
    async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
    'content to know the admin',
  );
  for (const probe of [
    () => call('GET', '/api/checkin/checkin?page=1&limit=5', undefined, admin.token),
    () => call('POST', '/api/payment/alldata?page=1&limit=5', {}, admin.token),
    () => call('GET', '/api/report?page=1&limit=5', undefined, admin.token),
  ]) {
    await eventually(async () => (await probe()).status === 200, 'every service to know the admin');
  }

  await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
  const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
  const addPost = async (type: 0 | 1, body: string) =>
    (
      await ok(
        'POST',
        '/api/template/add',
        { heading: `Post ${type}`, body, subject: '', subjects: [], topic, status: true, type },
        admin.token,
      )
    ).template._id as string;
  const freePost = await addPost(0, 'A free post anyone may read.');
  const premiumPost = await addPost(1, PREMIUM_SECRET);
  await eventually(
    async () =>
      (await call('POST', `/api/template/${premiumPost}`, {}, premium.token)).body?.template?.body ===
      PREMIUM_SECRET,
    'content to know the premium reader',
  );
  const promotion = (
    await ok(
      'POST',
      '/api/promotion/add',
      { heading: 'Spring', body: 'A promotion', btntext: 'Go', btnurl: 'https://example.com/' },
      admin.token,
    )
  ).promotion._id as string;
  const checkin = (
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0, tags: [] },
      admin.token,
    )
  ).data._id as string;
  // Reporting learns of the reader through the bus.
  let report = '';
  await eventually(async () => {
    const added = await call(
      'POST',
      '/api/report/add',
      { name: 'Readers', logo: 'https://x.test/l.png', monitoredUsers: user.id, accessUsers: user.id },
      admin.token,
    );
    report = added.body?.report?._id ?? '';
    return added.status === 200;
  }, 'reporting to know the reader');
  await eventually(
    async () =>
      (await call('POST', '/api/comment/add', { templateid: freePost, message: 'Nice.' }, user.token))
        .status === 200,
    'engagement to know the post',
  );
  const comment = (await ok('GET', `/api/comment/comments/${freePost}?page=1&limit=5`)).comments[0]
    ._id as string;

  const signinLink = (await internal('auth', '/internal/tokens/signin-link', { userId: user.id }))
    .token as string;
  const unsubLink = (await internal('auth', '/internal/tokens/unsubscribe', { userId: user.id }))
    .token as string;
  const issued = await internal('engagement', '/internal/checkin/issue', { userId: user.id });
  const checkinLink = new URL(issued.links[0].url).searchParams.get('qlid') as string;

  let throwaways = 0;
  return {
    app,
    dataDir,
    internalToken,
    client,
    credentials: {
      anonymous: '',
      user: user.token,
      premium: premium.token,
      admin: admin.token,
      tampered: tamper(user.token),
      signinLink,
      unsubLink,
      checkinLink,
    },
    ids: {
      admin: admin.id,
      user: user.id,
      premium: premium.id,
      spare: spare.id,
      topic,
      freePost,
      premiumPost,
      promotion,
      checkin,
      report,
      comment,
    },
    throwawaySession: async () => (await signIn(`throwaway-${++throwaways}@example.com`, false)).token,
    async close() {
      await app?.close();
      await new Promise((resolve) => writer.server.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The last commit's sequence number of every service's event store, read through each service's
 * GET /internal/events (contracts: internal-routes.ts), paging on from the cursor `from` held.
 */
export async function eventSeqs(
  world: World,
  from?: Record<ServiceName, number>,
): Promise<Record<ServiceName, number>> {
  const seqs = {} as Record<ServiceName, number>;
  for (const service of SERVICES) {
    let after = from?.[service] ?? 0;
    for (;;) {
      const res = await fetch(`${world.app.serviceUrls[service]}/internal/events?after=${after}&limit=5000`, {
        headers: { 'x-internal-token': world.internalToken },
      });
      if (!res.ok) throw new Error(`GET /internal/events of ${service}: ${res.status}`);
      const page = (await res.json()) as { next: number; done: boolean };
      after = page.next;
      if (page.done) break;
    }
    seqs[service] = after;
  }
  return seqs;
}

/** The event counts once they stop moving (the bus delivers between services asynchronously). */
export async function settledSeqs(world: World, from?: Record<ServiceName, number>) {
  let last = await eventSeqs(world, from);
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = await eventSeqs(world, last);
    if (SERVICES.every((s) => now[s] === last[s])) return now;
    last = now;
  }
  return last;
}
