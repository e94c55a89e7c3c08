import { gatePost, type Role } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, startContent, type TestUser } from './harness';

/** The opening (what the preview may show) is longer than the 150-character preview; the secret comes after it. */
const OPENING =
  'Rest is a skill. Start by noticing when your energy dips in the afternoon, and plan a short pause there instead of reaching for more coffee or another screen to scroll.';
const SECRET = 'PREMIUM-SECRET-7f3a: the rest of the premium body, for premium readers and admins only.';
const PREMIUM_BODY = `<p>${OPENING}</p><p>${SECRET}</p>`;
const FREE_BODY = 'FREE-BODY-19c2: a free body anyone may read.';

type Who = 'anonymous' | Role;
const WHO: Who[] = ['anonymous', 'user', 'premium', 'admin'];
const mayReadPremium = (who: Who) => who === 'premium' || who === 'admin';

describe('premium gating on the server (DESIGN.md §6)', () => {
  let h: ContentHarness;
  let premiumPost: any;
  let freePost: any;
  let otherPost: any;
  const users = {} as Record<Role, TestUser>;
  const tokenOf = (who: Who) => (who === 'anonymous' ? undefined : users[who].token);

  beforeAll(async () => {
    h = await startContent();
    const topic = await addTopic(h, 'Gated');
    const only = await addTopic(h, 'Premium only');
    otherPost = await addPost(h, { topic, heading: 'Other', body: 'Another free post.' });
    freePost = await addPost(h, { topic, heading: 'Free', body: FREE_BODY, type: 0 });
    premiumPost = await addPost(h, { topic: only, heading: 'Premium', body: PREMIUM_BODY, type: 1 });
    users.user = await h.user('user', { topics: [only] });
    users.premium = await h.user('premium', { topics: [only] });
    users.admin = await h.user('admin', { topics: [only] });
  });
  afterAll(() => h.close());

  const check = (who: Who, raw: string, post: any) => {
    if (mayReadPremium(who)) {
      expect(raw).toContain(SECRET);
      expect(post.body).toBe(PREMIUM_BODY);
      expect(post.locked).toBeUndefined();
    } else {
      expect(raw).not.toContain('PREMIUM-SECRET');
      expect(raw).not.toContain('for premium readers and admins only');
      expect(raw).not.toContain('another screen to scroll');
      expect(post.body).toBeUndefined();
      expect(post.locked).toBe(true);
      // The shared rule (services/contracts gating.ts) decides the preview; it is a start of the opening only.
      expect(post.preview).toBe(gatePost({ type: 1, body: PREMIUM_BODY }, null).preview);
      expect(OPENING.startsWith(post.preview.replace(/\.\.\.$/, ''))).toBe(true);
      expect(post.preview.length).toBeGreaterThan(50);
      expect(post.heading).toBe('Premium');
    }
  };

  describe.each(WHO)('%s', (who) => {
    it('getallpost: free bodies for all, the premium body only for premium and admin', async () => {
      for (const subscription of [true, false]) {
        const reply = await h.post('/api/logs/getallpost?page=1&limit=5', { subscription }, tokenOf(who));
        expect(reply.status).toBe(200);
        const premium = reply.body.templates.find((t: any) => t._id === premiumPost._id);
        const free = reply.body.templates.find((t: any) => t._id === freePost._id);
        expect(free.body).toBe(FREE_BODY);
        expect(free.locked).toBeUndefined();
        check(who, reply.text, premium);
      }
    });

    it('template/:id: the same rule, whatever the subscription flag says', async () => {
      const free = await h.post(`/api/template/${freePost._id}`, { subscription: true }, tokenOf(who));
      expect(free.status).toBe(200);
      expect(free.body.template.body).toBe(FREE_BODY);
      const reply = await h.post(`/api/template/${premiumPost._id}`, {
        subscription: true,
        token: tokenOf(who),
      });
      expect(reply.status).toBe(200);
      check(who, reply.text, reply.body.template);
    });

    it('recommendations: the same rule', async () => {
      const reply = await h.post(`/api/template/recommendations/${otherPost._id}?page=1&limit=5`, {
        token: tokenOf(who),
      });
      expect(reply.status).toBe(200);
      const premium = reply.body.templates.find((t: any) => t._id === premiumPost._id);
      check(who, reply.text, premium);
    });

    it('gettodaypost: the same rule (anonymous readers get 401)', async () => {
      const reply = await h.post('/api/logs/gettodaypost', { token: tokenOf(who) });
      if (who === 'anonymous') {
        expect(reply.status).toBe(401);
        expect(reply.text).not.toContain('PREMIUM-SECRET');
        return;
      }
      expect(reply.status).toBe(200);
      if (!mayReadPremium(who)) {
        // A reader who is not premium gets a free post first, even from a topic they did not pick.
        expect([freePost._id, otherPost._id]).toContain(reply.body.template._id);
        expect(reply.body.template.locked).toBeUndefined();
        expect(reply.text).not.toContain('PREMIUM-SECRET');
        return;
      }
      // Their only topic holds only the premium post, so it is today's post.
      expect(reply.body.template._id).toBe(premiumPost._id);
      check(who, reply.text, reply.body.template);
    });
  });

  it('follows the current role, not the token’s: a premium token of a user demoted since is gated', async () => {
    const { AuthEvents } = await import('@nudge/contracts');
    const { envelope } = await import('./harness');
    const demoted = await h.user('premium');
    await h.deliver(
      envelope(AuthEvents.RoleChanged.type, `user-${demoted.userId}`, 2, {
        userId: demoted.userId,
        from: 'premium',
        to: 'user',
        reason: 'expired',
      }),
    );
    const reply = await h.post(`/api/template/${premiumPost._id}`, {}, demoted.token);
    expect(reply.body.template.locked).toBe(true);
    expect(reply.text).not.toContain('PREMIUM-SECRET');
  });

  it('refuses a forged token as anonymous', async () => {
    const forged = `${users.premium.token.slice(0, -4)}AAAA`;
    const reply = await h.post(`/api/template/${premiumPost._id}`, { token: forged });
    expect(reply.body.template.locked).toBe(true);
    expect(reply.text).not.toContain('PREMIUM-SECRET');
  });
});
