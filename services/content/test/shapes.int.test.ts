import { CONTENT_SCHEMAS } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { addPost, addTopic, type ContentHarness, pngDataUrl, startContent } from './harness';

/** Every content route answers what its contract schema (services/contracts/src/content.ts) says. */
describe('responses match the contract schemas', () => {
  let h: ContentHarness;
  let post: any;
  let premium: any;
  let promotion: any;
  beforeAll(async () => {
    h = await startContent();
    const topic = await addTopic(h, 'Shapes');
    post = await addPost(h, { topic, image: await pngDataUrl(20, 20), subjects: ['a', 'b'] });
    premium = await addPost(h, { topic, type: 1 });
    promotion = (await h.post('/api/promotion/add', { heading: 'P' }, h.admin.token)).body.promotion;
  });
  afterAll(() => h.close());

  const conforms = (key: string, body: unknown) => {
    const schema = CONTENT_SCHEMAS[key]?.response as z.ZodType;
    const result = schema.safeParse(body);
    expect(result.success, `${key}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
  };

  it('for every JSON route', async () => {
    const reader = await h.user('user');
    const calls: [string, () => Promise<{ status: number; body: unknown }>][] = [
      ['GET /api/topic/getalltopics', () => h.get('/api/topic/getalltopics')],
      ['POST /api/topic/add', () => h.post('/api/topic/add', { topic: 'Another' }, h.admin.token)],
      ['POST /api/logs/getallpost', () => h.post('/api/logs/getallpost', {}, reader.token)],
      ['POST /api/logs/gettodaypost', () => h.post('/api/logs/gettodaypost', {}, reader.token)],
      [
        'POST /api/template/add',
        () => h.post('/api/template/add', { heading: 'h', body: 'b', topic: post.topic }, h.admin.token),
      ],
      ['GET /api/template/templates', () => h.get('/api/template/templates', h.admin.token)],
      ['GET /api/template/alltemplates', () => h.get('/api/template/alltemplates', h.admin.token)],
      [
        'GET /api/template/allsubjecttemplates',
        () => h.get('/api/template/allsubjecttemplates', h.admin.token),
      ],
      ['GET /api/template/details/:id', () => h.get(`/api/template/details/${post._id}`, h.admin.token)],
      [
        'POST /api/template/update/:id',
        () => h.post(`/api/template/update/${post._id}`, { info: { heading: 'x' } }, h.admin.token),
      ],
      [
        'POST /api/template/recommendations/:id',
        () => h.post(`/api/template/recommendations/${post._id}`, {}, reader.token),
      ],
      ['POST /api/template/:id', () => h.post(`/api/template/${premium._id}`, {}, reader.token)],
      ['POST /api/template/:id', () => h.post(`/api/template/${post._id}`, {})],
      ['GET /api/promotion/all', () => h.get('/api/promotion/all', h.admin.token)],
      ['GET /api/promotion/active', () => h.get('/api/promotion/active')],
      ['POST /api/promotion/add', () => h.post('/api/promotion/add', { heading: 'Q' }, h.admin.token)],
      [
        'GET /api/promotion/details/:id',
        () => h.get(`/api/promotion/details/${promotion._id}`, h.admin.token),
      ],
      [
        'POST /api/promotion/update/:id',
        () => h.post(`/api/promotion/update/${promotion._id}`, { info: { body: 'x' } }, h.admin.token),
      ],
      ['GET /api/sitesettings/fetch', () => h.get('/api/sitesettings/fetch')],
      [
        'PUT /api/sitesettings/update',
        () => h.put('/api/sitesettings/update', { settings: { sitetitle: 'S' } }, h.admin.token),
      ],
    ];
    for (const [key, call] of calls) {
      const reply = await call();
      expect(reply.status, key).toBe(200);
      conforms(key, reply.body);
    }
  });

  it('for the empty answer of today’s post', async () => {
    const fresh = await startContent();
    try {
      const reader = await fresh.user('user');
      const reply = await fresh.post('/api/logs/gettodaypost', {}, reader.token);
      conforms('POST /api/logs/gettodaypost', reply.body);
    } finally {
      await fresh.close();
    }
  });

  it('documents every content route of the routing table', async () => {
    const { apiRoutes } = await import('@nudge/contracts');
    for (const route of apiRoutes.filter((r) => r.service === 'content')) {
      expect(CONTENT_SCHEMAS[`${route.method} ${route.path}`], `${route.method} ${route.path}`).toBeDefined();
    }
  });
});
