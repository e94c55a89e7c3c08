import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContentEvents, EngagementEvents } from '@nudge/contracts';
import {
  closeServer,
  createLogger,
  createMessaging,
  createTokenIssuer,
  listen,
  loadConfig,
  loadOrCreateSigningKeys,
  openEventBus,
  openOutboxStore,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { jsonCall, until } from '@nudge/platform/testing';
import { describe, expect, it } from 'vitest';
import { bootContent } from '../src';
import { envelope, pngDataUrl } from './harness';

describe('bootContent (what the standalone process and the container run)', () => {
  it('serves from configuration: files under DATA_DIR/media, events to the bus, consumer on group content', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-content-boot-'));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
    const log = createLogger('boot-test', 'silent');
    const { bus, close: closeBus } = await openEventBus(config, log);
    const outboxStore = await openOutboxStore(config);
    const content = await bootContent({
      config,
      bus,
      log,
      messaging: createMessaging(config, outboxStore),
      serviceUrls: {},
    });
    const { server, url } = await listen(content.app, 0);
    const published: string[] = [];
    const watcher = await bus.subscribe('boot-test', [topicFor('content')], async (m) => {
      published.push(JSON.parse(m.value).type);
    });
    try {
      await content.ready();
      // The same keys auth would use in the embedded topology (generated once under DATA_DIR/keys).
      const keys = await loadOrCreateSigningKeys(dir);
      const admin = await createTokenIssuer(keys.privateKey, 1).signSession({
        userId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        email: 'boss@example.com',
        role: 'admin',
      });
      const topic = await jsonCall(url, 'POST', '/api/topic/add', { topic: 'Boot' }, admin);
      expect(topic.status).toBe(200);
      const post = await jsonCall(
        url,
        'POST',
        '/api/template/add',
        { heading: 'H', body: 'B', topic: topic.body.topic._id, image: await pngDataUrl(20, 20) },
        admin,
      );
      expect(post.status).toBe(200);
      expect(readdirSync(join(dir, 'media')).length).toBeGreaterThan(0);
      expect(existsSync(join(dir, 'content'))).toBe(true);

      await until(
        () => published.includes(ContentEvents.TemplateAdded.type),
        'TemplateAdded on nudge.content.events',
      );
      const templateId = post.body.template._id;
      await bus.publish([
        toBusMessage(
          topicFor('engagement'),
          envelope(EngagementEvents.LikeSet.type, `like-x-${templateId}`, 1, {
            userId: 'x',
            templateId,
            liked: true,
          }),
        ),
      ]);
      await expect
        .poll(
          async () =>
            (await jsonCall(url, 'POST', `/api/template/${templateId}`, {})).body.template.totallikes,
          {
            timeout: 10_000,
          },
        )
        .toBe(1);
      // A 5 MB image fits the content service's body limit.
      const big = await jsonCall(url, 'POST', '/api/template/add', { image: 'x'.repeat(7_000_000) }, admin);
      expect(big.status).toBe(400);
    } finally {
      await watcher.close();
      await closeServer(server);
      await content.close();
      await outboxStore.close();
      await closeBus();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
