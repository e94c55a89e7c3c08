// The container topology, every process its own OS process with its manifest's entry and environment, on the run's
// Kafka broker and Temporal dev server: what a reader and an admin do shows where they look for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '../../scripts/topology/launcher';
import { client, eventually, internal, openTopology, sharedEngines } from './world';

const engines = await sharedEngines();
if (engines.reason) console.log(`[distributed] flows: skipped: ${engines.reason}`);

let topology: Topology;
let remove: (() => Promise<void>) | undefined;
const { call, ok, once200, signIn } = client(() => topology);

beforeAll(async () => {
  if (engines.reason) return;
  ({ topology, remove } = await openTopology('nudge-dist-flows-', {
    kafkaBrokers: engines.kafkaBrokers,
    temporalAddress: engines.temporalAddress,
    config: { ADMIN_EMAILS: 'admin@example.com' },
  }));
});
afterAll(async () => {
  await remove?.();
});

describe.skipIf(engines.reason)('the distributed topology (Kafka, Temporal, a process per container)', () => {
  it("a reader's sign-up, read, like, comment and check-in answer show in the admin's event log and report", async () => {
    const admin = await signIn('admin@example.com');
    await once200('GET', '/api/template/alltemplates', undefined, admin.token);
    await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const { template } = await ok(
      'POST',
      '/api/template/add',
      { heading: 'Breathe', body: 'Slowly.', subject: '', subjects: [], topic, status: true, type: 0 },
      admin.token,
    );
    const post = template._id as string;
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0, tags: [] },
      admin.token,
    );

    const reader = await signIn('dist-reader@example.com');
    await once200('POST', `/api/template/${post}`, {}, reader.token);
    await once200('POST', '/api/like/add', { templateid: post, status: true }, reader.token);
    await once200('POST', '/api/comment/add', { templateid: post, message: 'Lovely.' }, reader.token);
    // The like and the comment reach content over Kafka: the post's counts show them.
    await eventually(async () => {
      const seen = (await ok('POST', `/api/template/${post}`, {}, reader.token)).template;
      return seen.totallikes === 1 && seen.totalcomments === 1 && seen.like === true;
    }, "the like and the comment in the post's counts");
    const issued = await internal(topology, 'engagement', '/internal/checkin/issue', { userId: reader.id });
    await ok('POST', `/api/checkin${new URL(issued.links[3].url).search}`);

    await eventually(
      async () => {
        const log = await ok('POST', '/api/eventlogs/logs?page=1&limit=50', {}, admin.token);
        const types = log.data
          .filter((r: { userId: string }) => r.userId === reader.id)
          .map((r: { eventType: string }) => r.eventType);
        return ['sign_in', 'post_read', 'like', 'comment', 'checkin_answer'].every((t) => types.includes(t));
      },
      'the event log to show the reader',
      60_000,
    );
    const { report } = await ok(
      'POST',
      '/api/report/add',
      { name: 'Readers', logo: 'https://x.test/l.png', monitoredUsers: reader.id, accessUsers: reader.id },
      admin.token,
    );
    const viewed = await ok(
      'POST',
      `/api/report/data?view=monthly&id=${report._id}&page=1`,
      {},
      reader.token,
    );
    expect(viewed.data[0]).toMatchObject({
      uniquePeopleCount: 1,
      activePeopleCount: 1,
      questionsSent: 1,
      questionsAnswered: 1,
      responseRate: 100,
    });
    // No dev outbox in the container topology.
    expect((await call('GET', '/api/dev/outbox')).status).toBe(404);
  });
});
