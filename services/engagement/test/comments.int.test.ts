import { AuthEvents, EngagementEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startEngagement, type TestUser } from './harness';

let h: Harness;
beforeEach(async () => {
  h = await startEngagement();
});
afterEach(async () => {
  await h.close();
});

const add = (token: string | undefined, templateid: string, message: string) =>
  h.post('/api/comment/add', { ...(token ? { token } : {}), templateid, message });

describe('who may comment (reader.md §5)', () => {
  it('follows the permission matrix of role x post type', async () => {
    const user = await h.user();
    const premium = await h.user({ role: 'premium' });
    const admin = await h.user({ role: 'admin' });
    const free = await h.addPost({ type: 0 });
    const paid = await h.addPost({ type: 1 });

    const cases: [string, TestUser | undefined, string, number][] = [
      ['anonymous/free', undefined, free, 401],
      ['anonymous/premium', undefined, paid, 401],
      ['user/free', user, free, 200],
      ['user/premium', user, paid, 403],
      ['premium/free', premium, free, 200],
      ['premium/premium', premium, paid, 200],
      ['admin/free', admin, free, 200],
      ['admin/premium', admin, paid, 200],
    ];
    for (const [label, who, post, expected] of cases) {
      const res = await add(who?.token, post, `hello from ${label}`);
      expect(res.status, label).toBe(expected);
      if (expected === 403) {
        expect(res.body).toEqual({
          status: false,
          message: 'Only premium readers can comment on premium posts.',
        });
      }
    }
    expect(await h.ownEvents(EngagementEvents.CommentAdded.type)).toHaveLength(5);
  });

  it('follows a role change at once, even with a token signed before it', async () => {
    const reader = await h.user();
    const paid = await h.addPost({ type: 1 });
    expect((await add(reader.token, paid, 'before')).status).toBe(403);
    await h.deliver('auth', [
      h.envelope(`user-${reader.userId}`, AuthEvents.RoleChanged.type, {
        userId: reader.userId,
        from: 'user',
        to: 'premium',
        reason: 'billing',
      }),
    ]);
    expect((await add(reader.token, paid, 'after')).status).toBe(200);
  });

  it('refuses everyone while comments are turned off, and allows again when on', async () => {
    const admin = await h.user({ role: 'admin' });
    const post = await h.addPost();
    await h.setSettings({ sitetitle: 'Nudge', isCommentsVisible: false });
    const off = await add(admin.token, post, 'hello');
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ status: false, message: 'Comments are turned off' });
    await h.setSettings({ sitetitle: 'Nudge' });
    expect((await add(admin.token, post, 'hello')).status).toBe(200);
  });

  it('asks for a first and last name first', async () => {
    const nameless = await h.user({ firstname: '', lastname: '' });
    const firstOnly = await h.user({ lastname: '' });
    const post = await h.addPost();
    for (const who of [nameless, firstOnly]) {
      const res = await add(who.token, post, 'hello');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        status: false,
        message: 'Please add your first and last name before commenting',
      });
    }
    await h.deliver('auth', [
      h.envelope(`user-${nameless.userId}`, AuthEvents.ProfileUpdated.type, {
        userId: nameless.userId,
        firstname: 'Nia',
        lastname: 'Roy',
      }),
    ]);
    expect((await add(nameless.token, post, 'hello')).status).toBe(200);
  });

  it('a name saved in auth but not yet in the directory is enough (no wait for the bus)', async () => {
    const reader = await h.user({ firstname: '', lastname: '' });
    const post = await h.addPost();
    expect((await add(reader.token, post, 'hello')).status).toBe(400);
    h.fakeAuth.users.set(reader.userId, { firstname: 'Nia', lastname: 'Roy' });
    const res = await add(reader.token, post, 'hello');
    expect(res.status).toBe(200);
    expect(res.body.comment.message).toBe('hello');
  });

  it('trims the message and holds it to 5000 characters', async () => {
    const reader = await h.user();
    const post = await h.addPost();
    const ok = await add(reader.token, post, `  ${'x'.repeat(5000)}  `);
    expect(ok.status).toBe(200);
    expect(ok.body.comment.message).toHaveLength(5000);

    const long = await add(reader.token, post, 'x'.repeat(5001));
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ status: false, message: 'Comment must be 5000 characters or less' });

    const blank = await add(reader.token, post, '   ');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ status: false, message: 'Please write a comment' });

    const unknownPost = await add(reader.token, 'bbbbbbbbbbbbbbbbbbbbbbbb', 'hello');
    expect(unknownPost.status).toBe(404);
    expect(unknownPost.body.message).toBe('Post not found');
    expect(await h.ownEvents(EngagementEvents.CommentAdded.type)).toHaveLength(1);
  });
});

describe('comment list, edit and delete', () => {
  it('a premium post lists its comments only to premium readers and admins, as its body; a paused post only to admins', async () => {
    const premium = await h.user({ role: 'premium' });
    const admin = await h.user({ role: 'admin' });
    const user = await h.user();
    const paid = await h.addPost({ type: 1 });
    expect((await add(premium.token, paid, 'premium talk')).status).toBe(200);
    const list = (token?: string) => h.get(`/api/comment/comments/${paid}?page=1&limit=5`, token);
    for (const [who, token] of [
      ['anonymous', undefined],
      ['user', user.token],
    ] as const) {
      const res = await list(token);
      expect(res.status, who).toBe(200);
      expect(res.body, who).toEqual({ status: true, comments: [], total: 1, locked: true });
      expect(res.text, who).not.toContain('premium talk');
    }
    for (const reader of [premium, admin]) {
      const res = await list(reader.token);
      expect(
        res.body.comments.map((c: any) => c.message),
        reader.role,
      ).toEqual(['premium talk']);
      expect(res.body.locked).toBeUndefined();
    }
    // a reader who becomes premium reads them at once
    const promoted = await h.user({ role: 'premium' });
    expect((await list(promoted.token)).body.comments).toHaveLength(1);

    const paused = await h.addPost();
    expect((await add(user.token, paused, 'before the pause')).status).toBe(200);
    await h.updatePost(paused, { status: false });
    const hidden = await h.get(`/api/comment/comments/${paused}?page=1&limit=5`, user.token);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('before the pause');
    const forAdmin = await h.get(`/api/comment/comments/${paused}?page=1&limit=5`, admin.token);
    expect(forAdmin.body.comments.map((c: any) => c.message)).toEqual(['before the pause']);
  });

  it('lists newest first, 5 a page, with the author as the directory knows them now', async () => {
    const ann = await h.user({ firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com' });
    const post = await h.addPost();
    const otherPost = await h.addPost();
    for (let i = 1; i <= 7; i++) {
      h.clock.now = new Date(h.clock.now.getTime() + 1000);
      await add(ann.token, post, `comment ${i}`);
    }
    await add(ann.token, otherPost, 'elsewhere');

    const page1 = await h.get(`/api/comment/comments/${post}?page=1&limit=5`);
    expect(page1.status).toBe(200);
    // Signed out or signed in as someone else: a name, never the commenter's address.
    expect(page1.text).not.toContain('ann@example.com');
    const reader = await h.user();
    const asOther = await h.get(`/api/comment/comments/${post}?page=1&limit=5`, reader.token);
    expect(asOther.text).not.toContain('ann@example.com');
    const asAuthor = await h.get(`/api/comment/comments/${post}?page=1&limit=5`, ann.token);
    expect(page1.body.total).toBe(7);
    expect(page1.body.comments.map((c: any) => c.message)).toEqual([
      'comment 7',
      'comment 6',
      'comment 5',
      'comment 4',
      'comment 3',
    ]);
    expect(page1.body.comments[0]).toMatchObject({
      templateId: post,
      userDetails: { email: '', firstname: 'Ann', lastname: 'Lee' },
    });
    // The author's own comments are marked by the server from the session; no address travels, not even to them.
    expect(asAuthor.text).not.toContain('ann@example.com');
    expect(asAuthor.body.comments.map((c: any) => c.mine)).toEqual([true, true, true, true, true]);
    expect(asOther.body.comments.map((c: any) => c.mine)).toEqual([false, false, false, false, false]);
    expect(page1.body.comments[0].mine).toBe(false);
    expect(Object.keys(page1.body.comments[0]).sort()).toEqual([
      '_id',
      'createdAt',
      'message',
      'mine',
      'templateId',
      'userDetails',
    ]);
    const page2 = await h.get(`/api/comment/comments/${post}?page=2&limit=5`);
    expect(page2.body.comments.map((c: any) => c.message)).toEqual(['comment 2', 'comment 1']);

    await h.deliver('auth', [
      h.envelope(`user-${ann.userId}`, AuthEvents.ProfileUpdated.type, {
        userId: ann.userId,
        lastname: 'Lee-Shaw',
      }),
    ]);
    const renamed = await h.get(`/api/comment/comments/${post}?page=1&limit=5`);
    expect(renamed.body.comments[0].userDetails.lastname).toBe('Lee-Shaw');
    expect((await h.get('/api/comment/comments/nothing-here')).body).toEqual({
      status: true,
      comments: [],
      total: 0,
    });
    expect((await h.get(`/api/comment/comments/${post}?limit=500`)).status).toBe(400);
  });

  it('a retry with the same Idempotency-Key returns the first comment instead of posting twice', async () => {
    const ann = await h.user({ firstname: 'Ann', lastname: 'Lee' });
    const post = await h.addPost();
    const send = (key: string, message: string) =>
      fetch(`${h.url}/api/comment/add`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${ann.token}`,
          'idempotency-key': key,
        },
        body: JSON.stringify({ templateid: post, message }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const first = await send('retry-1', 'hello');
    const again = await send('retry-1', 'hello');
    expect(first.status).toBe(200);
    expect(again.body.comment._id).toBe(first.body.comment._id);
    const other = await send('retry-2', 'hello');
    expect(other.body.comment._id).not.toBe(first.body.comment._id);
    expect((await h.get(`/api/comment/comments/${post}`)).body.total).toBe(2);
    const bad = await send('has space', 'hello');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Idempotency-Key/);
    expect((await h.get(`/api/comment/comments/${post}`)).body.total).toBe(2);
  });

  it('lets only the author edit', async () => {
    const author = await h.user();
    const other = await h.user();
    const admin = await h.user({ role: 'admin' });
    const post = await h.addPost();
    const { comment } = (await add(author.token, post, 'first words')).body;

    const edited = await h.post('/api/comment/edit', {
      token: author.token,
      id: comment._id,
      comment: ' better words ',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.comment).toMatchObject({ _id: comment._id, message: 'better words' });
    expect(edited.body.comment.updatedAt).toBeDefined();

    for (const who of [other, admin]) {
      const res = await h.post('/api/comment/edit', { token: who.token, id: comment._id, comment: 'hijack' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: false, message: 'You can only edit your own comments' });
    }
    const tooLong = await h.post('/api/comment/edit', {
      token: author.token,
      id: comment._id,
      comment: 'y'.repeat(5001),
    });
    expect(tooLong.body).toEqual({ status: false, message: 'Comment must be 5000 characters or less' });
    const missing = await h.post('/api/comment/edit', {
      token: author.token,
      id: 'cccccccccccccccccccccccc',
      comment: 'x',
    });
    expect(missing.status).toBe(404);
    expect((await h.post('/api/comment/edit', { id: comment._id, comment: 'x' })).status).toBe(401);

    const listed = await h.get(`/api/comment/comments/${post}`);
    expect(listed.body.comments[0].message).toBe('better words');
    const edits = await h.ownEvents(EngagementEvents.CommentEdited.type);
    expect(edits.map((e) => e.data)).toEqual([
      { commentId: comment._id, templateId: post, userId: author.userId, message: 'better words' },
    ]);
  });

  it('lets the author or an admin delete, and nobody else', async () => {
    const author = await h.user();
    const other = await h.user();
    const admin = await h.user({ role: 'admin' });
    const post = await h.addPost();
    const one = (await add(author.token, post, 'one')).body.comment;
    const two = (await add(author.token, post, 'two')).body.comment;

    const refused = await h.post('/api/comment/delete', { token: other.token, id: one._id });
    expect(refused.status).toBe(403);
    expect((await h.post('/api/comment/delete', { id: one._id })).status).toBe(401);

    expect((await h.post('/api/comment/delete', { token: author.token, id: one._id })).body).toEqual({
      status: true,
    });
    expect((await h.post('/api/comment/delete', { token: admin.token, id: two._id })).body).toEqual({
      status: true,
    });
    const again = await h.post('/api/comment/delete', { token: admin.token, id: two._id });
    expect(again.status).toBe(404);
    expect((await h.get(`/api/comment/comments/${post}`)).body).toMatchObject({ comments: [], total: 0 });

    const deletions = await h.ownEvents(EngagementEvents.CommentDeleted.type);
    expect(deletions.map((e) => e.data)).toEqual([
      { commentId: one._id, templateId: post, userId: author.userId, by: author.userId },
      { commentId: two._id, templateId: post, userId: author.userId, by: admin.userId },
    ]);
  });
});
