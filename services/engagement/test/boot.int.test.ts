import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, ContentEvents, checkEvent, EngagementEvents } from '@nudge/contracts';
import {
  closeServer,
  createEmbeddedStore,
  createMessaging,
  createTokenIssuer,
  type EventEnvelope,
  listen,
  loadConfig,
  loadOrCreateSigningKeys,
  loadSecrets,
  newId,
  openEventBus,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { jsonCall } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { bootEngagement } from '../src/index';
import { log, startFakeAuth, waitFor } from './harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups.length = 0;
});

const envelope = (stream: string, version: number, type: string, data: unknown): EventEnvelope => ({
  id: newId(),
  ...checkEvent(type, data),
  stream,
  version,
  occurredAt: new Date().toISOString(),
  actor: null,
  meta: {},
});

describe('bootEngagement (what the standalone process and the container run)', () => {
  it('consumes auth and content, serves, publishes its events, signs check-ins in through auth, and restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'nudge-engagement-boot-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://nudge.test' });
    const { bus, close: closeBus } = await openEventBus(config, log);
    cleanups.push(closeBus);
    const { internalToken } = await loadSecrets(config);
    const fakeAuth = await startFakeAuth(internalToken);
    cleanups.push(fakeAuth.close);
    const outboxStore = createEmbeddedStore({});
    cleanups.push(() => outboxStore.close());
    const boot = () =>
      bootEngagement({
        config,
        bus,
        log,
        messaging: createMessaging(config, outboxStore),
        serviceUrls: { auth: fakeAuth.url },
      });

    const first = await boot();
    const server = await listen(first.app, 0);
    await first.ready();

    const userId = newId();
    const templateId = newId();
    await bus.publish([
      toBusMessage(
        topicFor('auth'),
        envelope(`user-${userId}`, 1, AuthEvents.UserRegistered.type, {
          userId,
          email: 'ann@example.com',
          source: 'self',
          role: 'user',
          type: 0,
          notiinfo: { time: '08:00', active: true },
          topics: [],
          timeZone: 'UTC',
        }),
      ),
      toBusMessage(
        topicFor('content'),
        envelope(`template-${templateId}`, 1, ContentEvents.TemplateAdded.type, {
          templateId,
          heading: 'H',
          body: 'B',
          image: '',
          type: 0,
          topic: 't',
          status: true,
          subjects: [],
          createdAt: new Date().toISOString(),
        }),
      ),
    ]);

    const keys = await loadOrCreateSigningKeys(dataDir);
    const token = await createTokenIssuer(keys.privateKey, 1).signSession({
      userId,
      email: 'ann@example.com',
      role: 'user',
    });
    const like = () =>
      jsonCall(server.url, 'POST', '/api/like/add', { token, templateid: templateId, status: true });
    await waitFor(async () => (await like()).status === 200, 'the post to reach engagement');
    expect((await like()).body).toEqual({ status: true, like: true, totallikes: 1 });

    // The relay publishes engagement's events on its topic for content and reporting.
    const seen: string[] = [];
    const observer = await bus.subscribe('observer', [topicFor('engagement')], async (m) => {
      seen.push(JSON.parse(m.value).type);
    });
    cleanups.push(() => observer.close());
    await waitFor(() => seen.includes(EngagementEvents.LikeSet.type), 'LikeSet on nudge.engagement.events');

    // A check-in question, issued internally and answered through the link, signed in by auth.
    const admin = await createTokenIssuer(keys.privateKey, 1).signSession({
      userId: newId(),
      email: 'boss@example.com',
      role: 'admin',
    });
    await jsonCall(server.url, 'POST', '/api/checkin/add', { token: admin, body: 'How are you?' });
    const issued = await fetch(`${server.url}/internal/checkin/issue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify({ userId }),
    });
    const { qlid } = (await issued.json()) as { qlid: string };
    const answered = await jsonCall(server.url, 'POST', `/api/checkin?qlid=${qlid}&a=5`);
    expect(answered.body).toMatchObject({ status: true, token: `session-for-${userId}` });

    await closeServer(server.server);
    await first.close();

    // A restart on the same data directory keeps everything.
    const second = await boot();
    cleanups.push(() => second.close());
    const again = await listen(second.app, 0);
    cleanups.push(() => closeServer(again.server));
    const liked = await jsonCall(again.url, 'POST', '/api/like/getalllikedpost?page=1&limit=5', { token });
    expect(liked.body.templates).toHaveLength(1);
    const progress = await jsonCall(again.url, 'POST', '/api/checkin/progress', { token });
    expect(progress.body).toMatchObject({ average: 100, answers: 1 });
  });
});
