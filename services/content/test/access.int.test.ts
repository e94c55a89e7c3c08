import { apiRoutes } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, startContent } from './harness';

/** Walks every content route of the routing table with anonymous, user, premium and admin callers. */
describe('access rules of every content route, enforced by the content service', () => {
  let h: ContentHarness;
  let postId: string;
  let promotionId: string;
  beforeAll(async () => {
    h = await startContent({ ai: { model: 'm' } });
    const topic = await addTopic(h, 'Access');
    postId = (await addPost(h, { topic }))._id;
    promotionId = (await h.post('/api/promotion/add', { heading: 'P' }, h.admin.token)).body.promotion._id;
  });
  afterAll(() => h.close());

  const routes = apiRoutes.filter((r) => r.service === 'content');
  const concrete = (path: string) =>
    path
      .replace(':id', path.includes('promotion') ? promotionId : path.includes('media') ? 'unknown' : postId)
      .replace(':templateId', postId);

  it('covers the content routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(21);
  });

  it.each(routes.map((r) => [`${r.method} ${r.path} (${r.access})`, r] as const))(
    '%s',
    async (_label, route) => {
      const path = concrete(route.path);
      const body = route.method === 'GET' ? undefined : {};
      const user = await h.user('user');
      const premium = await h.user('premium');
      const anonymous = await h.call(route.method, path, body);
      const asUser = await h.call(route.method, path, body, user.token);
      const asPremium = await h.call(route.method, path, body, premium.token);
      const asAdmin = await h.call(route.method, path, body, h.admin.token);
      if (route.access === 'admin') {
        expect(anonymous.status).toBe(401);
        expect(asUser.status).toBe(403);
        expect(asPremium.status).toBe(403);
        expect([401, 403]).not.toContain(asAdmin.status);
      } else if (route.access === 'user') {
        expect(anonymous.status).toBe(401);
        for (const reply of [asUser, asPremium, asAdmin]) expect([401, 403]).not.toContain(reply.status);
      } else {
        expect(route.access).toBe('public');
        for (const reply of [anonymous, asUser, asPremium, asAdmin])
          expect([401, 403]).not.toContain(reply.status);
      }
    },
  );
});
