// The data set the content and engagement scenarios measure against (1,000 posts and 10,000 users),
// created once per standalone process through the public API, as an admin would.
import { type SignedIn, signIn } from './sign-in';

export const BENCH_ADMIN = 'bench-admin@example.com';

/** The standalone process's configuration for a bench run: the embedded topology, limits meant for people lifted. */
export const benchStandaloneConfig = (dataDir: string) => ({
  DATA_DIR: dataDir,
  PORT: '0',
  // BENCH_LOG_LEVEL=warn shows the services' warnings and errors (silent by default).
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  // The embedded topology: the dev outbox is where scenarios read their sign-in codes.
  NODE_ENV: 'development',
  MAIL_TRANSPORT: 'capture',
  // Limits meant for people, not for a load generator on one IP.
  RATE_LIMIT_PER_MINUTE: '100000000',
  INTAKE_EVENTS_PER_MINUTE: '100000000',
  GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: '100000',
  AUTH_CODE_LIMIT_PER_HOUR: '1000000',
  AUTH_CODE_IP_LIMIT_PER_HOUR: '1000000',
  // The content and engagement scenarios seed their data set as this admin.
  ADMIN_EMAILS: BENCH_ADMIN,
});
const USERS = 10_000;
const POSTS = 1_000;
const TOPICS = ['Sleep', 'Focus', 'Movement', 'Gratitude', 'Calm'];
const USER_BATCH = 500;
/** Requests in flight while seeding posts: an admin's browser tabs, or an import script, not one at a time. */
const SEED_CONCURRENCY = 8;

/** Runs work(item) for every item with at most `limit` in flight; results keep the items' order. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export interface Seeded {
  admin: SignedIn;
  reader: SignedIn;
  topicIds: string[];
  postIds: string[];
}

async function api<T = unknown>(
  url: string,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(new URL(path, url), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: method === 'GET' ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const paragraph =
  'Take a slow breath in for four counts, hold it for four, and let it go for six. Notice where your shoulders are ' +
  'and let them drop. Small pauses like this, repeated through the day, add up to a calmer week. ';

async function seed(url: string): Promise<Seeded> {
  const started = Date.now();
  const admin = await signIn(url, BENCH_ADMIN);
  const topicIds: string[] = [];
  const allTopics = () =>
    api<{ topics: { _id: string; topic: string }[] }>(url, 'GET', '/api/topic/getalltopics', undefined);
  // A seed run again after a failed one finds its topics there already.
  const existing = new Set((await allTopics()).topics.map((t) => t.topic));
  const missing = TOPICS.filter((t) => !existing.has(t));
  // The admin role reaches content through the bus a moment after the sign-in: the first call may be refused.
  for (let attempt = 0; missing.length > 0; attempt += 1) {
    try {
      await api(url, 'POST', '/api/topic/add', { topic: missing[0] }, admin.token);
      break;
    } catch (err) {
      if (attempt >= 50 || !String(err).includes('403')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  for (const topic of missing.slice(1)) await api(url, 'POST', '/api/topic/add', { topic }, admin.token);
  const { topics } = await allTopics();
  for (const t of topics) if (TOPICS.includes(t.topic)) topicIds.push(t._id);

  const userBatches = Array.from({ length: Math.ceil(USERS / USER_BATCH) }, (_, b) => b * USER_BATCH);
  await inParallel(userBatches, 1, async (from) => {
    const emails = Array.from(
      { length: Math.min(USER_BATCH, USERS - from) },
      (_, i) => `reader${from + i}@bench.example`,
    );
    await api(
      url,
      'POST',
      '/api/user/add',
      { info: { emails: emails.join(' '), topics: topicIds.slice(0, 2) } },
      admin.token,
    );
  });

  const postIds = await inParallel(
    Array.from({ length: POSTS }, (_, i) => i),
    SEED_CONCURRENCY,
    async (i) => {
      const { template } = await api<{ template: { _id: string } }>(
        url,
        'POST',
        '/api/template/add',
        {
          heading: `Daily nudge number ${i + 1}`,
          body: paragraph.repeat(3),
          subject: '',
          subjects: [{ title: `Your nudge for today (${i + 1})` }],
          topic: topicIds[i % topicIds.length],
          status: true,
          type: i % 10 === 0 ? 1 : 0,
        },
        admin.token,
      );
      return template._id;
    },
  );
  const reader = await signIn(url, 'bench-reader@example.com');
  process.stdout.write(
    `seeded ${USERS} users, ${POSTS} posts in ${TOPICS.length} topics in ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  return { admin, reader, topicIds, postIds };
}

const seeded = new Map<string, Promise<Seeded>>();

/**
 * The seeded data set of this standalone process (created on first use). A seed that failed is not remembered: the
 * next scenario seeds again instead of failing at once with the first one's error (otherwise one 503 during the seed
 * would fail every later scenario with that same 503, which reads as a service unreachable for the rest of the run).
 */
export function seededData(url: string, run: (url: string) => Promise<Seeded> = seed): Promise<Seeded> {
  let data = seeded.get(url);
  if (!data) {
    data = run(url);
    seeded.set(url, data);
    data.catch(() => {
      if (seeded.get(url) === data) seeded.delete(url);
    });
  }
  return data;
}
