import { EngagementEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startEngagement } from './harness';

let h: Harness;
beforeEach(async () => {
  h = await startEngagement();
});
afterEach(async () => {
  await h.close();
});

const likeSets = async () => h.ownEvents(EngagementEvents.LikeSet.type);

describe('POST /api/like/add', () => {
  it('likes and unlikes; the same status twice changes nothing and records one LikeSet', async () => {
    const reader = await h.user();
    const other = await h.user();
    const postId = await h.addPost();

    const first = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: true });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: true, like: true, totallikes: 1 });

    const again = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: true });
    expect(again.body).toEqual({ status: true, like: true, totallikes: 1 });
    expect(await likeSets()).toHaveLength(1);

    await h.post('/api/like/add', { token: other.token, templateid: postId, status: true });
    const unlike = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: false });
    expect(unlike.body).toEqual({ status: true, like: false, totallikes: 1 });
    const unlikeAgain = await h.post('/api/like/add', {
      token: reader.token,
      templateid: postId,
      status: false,
    });
    expect(unlikeAgain.body).toEqual({ status: true, like: false, totallikes: 1 });

    const sets = await likeSets();
    expect(sets.map((e) => e.data)).toEqual([
      { userId: reader.userId, templateId: postId, liked: true },
      { userId: other.userId, templateId: postId, liked: true },
      { userId: reader.userId, templateId: postId, liked: false },
    ]);
    expect(sets[0]?.stream).toBe(`like-${reader.userId}-${postId}`);
  });

  it('an unlike of a post never liked records nothing', async () => {
    const reader = await h.user();
    const postId = await h.addPost();
    const res = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: false });
    expect(res.body).toEqual({ status: true, like: false, totallikes: 0 });
    expect(await likeSets()).toHaveLength(0);
  });

  it('refuses anonymous callers, unknown posts and bad input, recording nothing', async () => {
    const reader = await h.user();
    const postId = await h.addPost();
    const anonymous = await h.post('/api/like/add', { templateid: postId, status: true });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.status).toBe(false);

    const forged = await h.post('/api/like/add', { token: 'not-a-token', templateid: postId, status: true });
    expect(forged.status).toBe(401);

    const unknown = await h.post('/api/like/add', {
      token: reader.token,
      templateid: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      status: true,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: false, message: 'Post not found' });

    const noStatus = await h.post('/api/like/add', { token: reader.token, templateid: postId });
    expect(noStatus.status).toBe(400);
    expect(noStatus.body.message).toMatch(/status must be true \(like\) or false \(unlike\)/);
    const badId = await h.post('/api/like/add', { token: reader.token, templateid: '../x', status: true });
    expect(badId.status).toBe(400);
    expect(await likeSets()).toHaveLength(0);
  });

  it('a paused post cannot be liked by a reader, but an earlier like can be taken back', async () => {
    const reader = await h.user();
    const postId = await h.addPost();
    await h.post('/api/like/add', { token: reader.token, templateid: postId, status: true });
    await h.updatePost(postId, { status: false });
    const unlike = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: false });
    expect(unlike.body).toEqual({ status: true, like: false, totallikes: 0 });
    const like = await h.post('/api/like/add', { token: reader.token, templateid: postId, status: true });
    expect(like.status).toBe(404);
  });

  it('takes the token from Authorization: Bearer as well as from the body', async () => {
    const reader = await h.user();
    const postId = await h.addPost();
    const res = await h.post('/api/like/add', { templateid: postId, status: true }, reader.token);
    expect(res.body).toEqual({ status: true, like: true, totallikes: 1 });
  });
});

describe('POST /api/like/getalllikedpost', () => {
  it('lists the liked posts newest like first, paged by 5, with the like id and templateDetails', async () => {
    const reader = await h.user();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await h.addPost({ heading: `Post ${i}` });
      ids.push(id);
      h.clock.now = new Date(h.clock.now.getTime() + 60_000);
      await h.post('/api/like/add', { token: reader.token, templateid: id, status: true });
    }
    // Unliking takes a post out of the list; liking it again brings it back first.
    await h.post('/api/like/add', { token: reader.token, templateid: ids[2], status: false });
    // A comment on the newest: the page carries each post's like and comment counts.
    const commented = await h.post('/api/comment/add', {
      token: reader.token,
      templateid: ids[6],
      message: 'Nice',
    });
    expect(commented.status).toBe(200);

    const page1 = await h.post('/api/like/getalllikedpost?page=1&limit=5', {
      token: reader.token,
      subscription: false,
    });
    expect(page1.status).toBe(200);
    expect(page1.body.status).toBe(true);
    expect(page1.body.templates.map((t: any) => t.templateDetails.heading)).toEqual([
      'Post 6',
      'Post 5',
      'Post 4',
      'Post 3',
      'Post 1',
    ]);
    const page2 = await h.post('/api/like/getalllikedpost?page=2&limit=5', { token: reader.token });
    expect(page2.body.templates.map((t: any) => t.templateDetails.heading)).toEqual(['Post 0']);
    const page3 = await h.post('/api/like/getalllikedpost?page=3&limit=5', { token: reader.token });
    expect(page3.body.templates).toEqual([]);

    const [entry] = page1.body.templates;
    const likeEvent = (await h.ownEvents(EngagementEvents.LikeSet.type)).find(
      (e) => (e.data as { templateId: string }).templateId === ids[6],
    );
    expect(entry).toMatchObject({
      _id: likeEvent?.id,
      templateid: ids[6],
      createdAt: likeEvent?.occurredAt,
      templateDetails: {
        _id: ids[6],
        heading: 'Post 6',
        image: '/api/media/img1',
        type: 0,
        status: true,
        totallikes: 1,
        totalcomments: 1,
        like: true,
      },
    });
    expect(page1.body.templates[1].templateDetails).toMatchObject({ totallikes: 1, totalcomments: 0 });
    expect(typeof entry.templateDetails.body).toBe('string');
  });

  it('gates premium bodies by the current role: user locked, premium and admin read', async () => {
    const user = await h.user();
    const premium = await h.user({ role: 'premium' });
    const admin = await h.user({ role: 'admin' });
    const body = 'The premium body. '.repeat(20);
    const postId = await h.addPost({ type: 1, body });
    for (const reader of [user, premium, admin]) {
      await h.post('/api/like/add', { token: reader.token, templateid: postId, status: true });
    }
    const listed = async (token: string) =>
      (await h.post('/api/like/getalllikedpost?page=1&limit=5', { token, subscription: true })).body
        .templates[0].templateDetails;

    const forUser = await listed(user.token);
    expect(forUser.body).toBeUndefined();
    expect(forUser.locked).toBe(true);
    expect(forUser.preview.length).toBeLessThanOrEqual(153);
    expect(forUser.totallikes).toBe(3);
    expect((await listed(premium.token)).body).toBe(body);
    expect((await listed(premium.token)).locked).toBeUndefined();
    expect((await listed(admin.token)).body).toBe(body);
  });

  it('leaves paused posts out and needs a signed-in caller', async () => {
    const reader = await h.user();
    const a = await h.addPost({ heading: 'kept' });
    const b = await h.addPost({ heading: 'paused' });
    await h.post('/api/like/add', { token: reader.token, templateid: a, status: true });
    await h.post('/api/like/add', { token: reader.token, templateid: b, status: true });
    await h.updatePost(b, { status: false });
    const res = await h.post('/api/like/getalllikedpost?page=1&limit=5', { token: reader.token });
    expect(res.body.templates.map((t: any) => t.templateDetails.heading)).toEqual(['kept']);
    expect((await h.post('/api/like/getalllikedpost?page=1&limit=5', {})).status).toBe(401);
    expect((await h.post('/api/like/getalllikedpost?page=0', { token: reader.token })).status).toBe(400);
  });
});
