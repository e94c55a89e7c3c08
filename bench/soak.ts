// npm run soak [-- --minutes 10 --rate 20 --warmup 1]
//
// The soak. Starts `npm start` as a process of its own on a fresh data directory, then sends mixed traffic
// (feed pages, post reads, comment lists, likes, comments, web events, sign-in codes, admin lists) at a fixed rate
// for N minutes. Reports the errors (any answer other than the request's success status, or no answer; target 0)
// and the drift of the process's resident memory after the warm-up (target at most 10%): the mean of the samples of
// the first minute after the warm-up against the mean of the samples of the last minute. Exits with 1 when a target
// is missed. Traffic goes to 127.0.0.1 only; the run stops by itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Standalone } from '../deploy/standalone/src/index';
import { gatewayClient } from '../deploy/standalone/test/helpers';
import { type StandaloneProcess, spawnStandalone } from '../deploy/standalone/test/standalone-process';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '1' },
  },
});
const MINUTES = Number(values.minutes);
const RATE = Number(values.rate);
const WARMUP_MINUTES = Math.min(Number(values.warmup), MINUTES / 4);
const SAMPLE_MS = 2_000;
/** Requests in flight at most; a request due while this many wait counts as an error (the process fell behind). */
const MAX_OUTSTANDING = 200;
const DRIFT_TARGET = 0.1;

interface Kind {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  token?: string;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'nudge-soak-'));
  let standalone: StandaloneProcess | undefined;
  try {
    standalone = await spawnStandalone({
      DATA_DIR: dataDir,
      ADMIN_EMAILS: 'admin@example.com',
      WEB_DIST: join(dataDir, 'no-web'),
      RATE_LIMIT_PER_MINUTE: '100000000',
      INTAKE_EVENTS_PER_MINUTE: '100000000',
      AUTH_CODE_IP_LIMIT_PER_HOUR: '100000000',
    });
    const proc = standalone;
    const { ok, call, eventually, signIn } = gatewayClient(() => ({ url: proc.url }) as Standalone);
    const admin = await signIn('admin@example.com');
    const readers: { token: string; id: string }[] = [];
    for (let i = 0; i < 5; i++) readers.push(await signIn(`soak-reader-${i}@example.com`));
    await eventually(
      async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
      'content to know the admin',
    );
    await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id;
    const posts: string[] = [];
    /** The free posts: plain readers may comment on these (a premium post refuses them). */
    const freePosts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const body = {
        heading: `Soak ${i}`,
        body: `Body ${i}`,
        subject: '',
        subjects: [],
        topic,
        status: true,
        type: i % 3 === 0 ? 1 : 0,
      };
      const id = (await ok('POST', '/api/template/add', body, admin.token)).template._id;
      posts.push(id);
      if (body.type === 0) freePosts.push(id);
    }
    await eventually(
      async () => (await call('GET', `/api/comment/comments/${posts[9]}?page=1&limit=5`)).status === 200,
      'engagement to know the posts',
    );

    let n = 0;
    const pick = <T>(list: T[]) => list[n % list.length] as T;
    const next = (): Kind => {
      n += 1;
      const reader = pick(readers).token;
      const post = pick(posts);
      const all: Kind[] = [
        { name: 'feed', method: 'POST', path: `/api/logs/getallpost?page=${(n % 2) + 1}&limit=5`, body: {} },
        {
          name: 'feed',
          method: 'POST',
          path: '/api/logs/getallpost?page=1&limit=5',
          body: {},
          token: reader,
        },
        { name: 'post', method: 'POST', path: `/api/template/${post}`, body: {}, token: reader },
        { name: 'post', method: 'POST', path: `/api/template/${post}`, body: {} },
        { name: 'comments', method: 'GET', path: `/api/comment/comments/${post}?page=1&limit=5` },
        {
          name: 'like',
          method: 'POST',
          path: '/api/like/add',
          body: { templateid: post, status: n % 4 < 2 },
          token: reader,
        },
        {
          name: 'web event',
          method: 'POST',
          path: '/api/eventlogs',
          body: { eventType: 'page_visit', eventValue: '/' },
        },
        { name: 'today', method: 'POST', path: '/api/logs/gettodaypost', body: {}, token: reader },
        { name: 'settings', method: 'GET', path: '/api/sitesettings/fetch' },
        { name: 'history', method: 'POST', path: '/api/history/getuserhistory', body: {}, token: reader },
        {
          name: 'admin users',
          method: 'GET',
          path: '/api/user/getallusers?page=1&limit=10',
          token: admin.token,
        },
        { name: 'isauth', method: 'POST', path: '/api/user/isauth', body: {}, token: reader },
      ];
      // One in 20 is a write that adds data: a comment, or a sign-in code.
      if (n % 40 === 0)
        return {
          name: 'comment',
          method: 'POST',
          path: '/api/comment/add',
          body: { templateid: pick(freePosts), message: `Soak ${n}` },
          token: reader,
        };
      if (n % 40 === 20)
        return {
          name: 'sign-in code',
          method: 'POST',
          path: '/api/user/auth',
          body: { email: `soak-${n}@example.com` },
        };
      return pick(all);
    };

    const errors = new Map<string, number>();
    const statuses = new Map<number, number>();
    let sent = 0;
    let outstanding = 0;
    const latencies: number[] = [];
    const byKind = new Map<string, number[]>();
    /** The first answer of each kind of error, for the report. */
    const firstAnswers = new Map<string, string>();
    const send = async (kind: Kind) => {
      if (outstanding >= MAX_OUTSTANDING) {
        errors.set('fell behind', (errors.get('fell behind') ?? 0) + 1);
        return;
      }
      outstanding += 1;
      sent += 1;
      const started = performance.now();
      try {
        const res = await fetch(proc.url + kind.path, {
          method: kind.method,
          headers: {
            ...(kind.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(kind.token ? { authorization: `Bearer ${kind.token}` } : {}),
          },
          ...(kind.body === undefined ? {} : { body: JSON.stringify(kind.body) }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200) {
          const what = `${kind.name} ${res.status}`;
          errors.set(what, (errors.get(what) ?? 0) + 1);
          if (!firstAnswers.has(what)) firstAnswers.set(what, text.slice(0, 200));
        }
      } catch (err) {
        const what = `${kind.name} ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).name}`;
        errors.set(what, (errors.get(what) ?? 0) + 1);
      } finally {
        outstanding -= 1;
        const ms = performance.now() - started;
        latencies.push(ms);
        byKind.set(kind.name, [...(byKind.get(kind.name) ?? []), ms]);
      }
    };

    const samples: { atMs: number; rss: number }[] = [];
    const start = Date.now();
    const endAt = start + MINUTES * 60_000;
    const sampler = setInterval(() => {
      proc.rss().then(
        (rss) => samples.push({ atMs: Date.now() - start, rss }),
        () => undefined,
      );
    }, SAMPLE_MS);
    let due = 0;
    let lastReport = start;
    console.log(
      `soak: ${MINUTES} min at ${RATE} req/s against ${proc.url} (pid ${proc.pid}), warm-up ${WARMUP_MINUTES} min`,
    );
    while (Date.now() < endAt) {
      const shouldHaveSent = Math.floor(((Date.now() - start) / 1000) * RATE);
      while (due < shouldHaveSent) {
        due += 1;
        void send(next());
      }
      if (Date.now() - lastReport >= 30_000) {
        lastReport = Date.now();
        const rss = samples[samples.length - 1]?.rss ?? 0;
        const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
        console.log(
          `  ${Math.round((lastReport - start) / 1000)} s: ${sent} sent, ${errorCount} errors, rss ${(rss / 2 ** 20).toFixed(1)} MB`,
        );
      }
      if (!proc.alive()) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (outstanding > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    clearInterval(sampler);

    const warmupMs = WARMUP_MINUTES * 60_000;
    const windowMs = Math.min(60_000, (MINUTES * 60_000 - warmupMs) / 3);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const first = mean(
      samples.filter((s) => s.atMs >= warmupMs && s.atMs < warmupMs + windowMs).map((s) => s.rss),
    );
    const lastFrom = MINUTES * 60_000 - windowMs;
    const last = mean(samples.filter((s) => s.atMs >= lastFrom).map((s) => s.rss));
    const drift = first > 0 ? (last - first) / first : Number.NaN;
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    const report = {
      minutes: MINUTES,
      ratePerSec: RATE,
      sent,
      achievedPerSec: Math.round((sent / (MINUTES * 60)) * 10) / 10,
      byStatus: Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b)),
      errors: errorCount,
      errorKinds: Object.fromEntries(errors),
      firstErrorAnswers: Object.fromEntries(firstAnswers),
      p50MsByKind: Object.fromEntries(
        [...byKind.entries()].map(([k, xs]) => [
          k,
          Math.round(xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0),
        ]),
      ),
      p50Ms: Math.round(p(0.5)),
      p99Ms: Math.round(p(0.99)),
      rssAfterWarmupMb: Math.round((first / 2 ** 20) * 10) / 10,
      rssAtEndMb: Math.round((last / 2 ** 20) * 10) / 10,
      rssDriftPercent: Math.round(drift * 1000) / 10,
      processAlive: proc.alive(),
    };
    console.log(JSON.stringify(report, null, 2));
    const passed = errorCount === 0 && drift <= DRIFT_TARGET && proc.alive();
    console.log(
      passed
        ? 'soak: PASS (0 errors, memory drift within 10%)'
        : `soak: FAIL (${errorCount} errors, drift ${report.rssDriftPercent}%, alive ${proc.alive()})`,
    );
    process.exitCode = passed ? 0 : 1;
  } finally {
    await standalone?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
