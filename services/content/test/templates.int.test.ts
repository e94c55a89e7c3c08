import { ContentEvents } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, pngDataUrl, startContent } from './harness';

describe('posts (templates) for admins', () => {
  let h: ContentHarness;
  let topic: string;
  let other: string;
  beforeAll(async () => {
    h = await startContent();
    topic = await addTopic(h, 'Sleep');
    other = await addTopic(h, 'Food');
  });
  afterAll(() => h.close());

  const valid = () => ({
    subject: '',
    subjects: ['Sleep better tonight'],
    heading: 'Wind down',
    image: '',
    body: '<p>Dim the lights an hour before bed.</p>',
    topic,
    status: true,
    type: 0,
  });

  it('adds a post as the create screen sends it, with the spec’s message', async () => {
    const reply = await h.post('/api/template/add', valid(), h.admin.token);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      message: 'Template Added Successfully',
      template: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        heading: 'Wind down',
        body: '<p>Dim the lights an hour before bed.</p>',
        image: '',
        type: 0,
        topic,
        status: true,
        subjects: [{ id: expect.any(String), title: 'Sleep better tonight', status: true }],
        totallikes: 0,
        totalcomments: 0,
        emails_sent: 0,
        emails_open: 0,
        email_open_rate: 0,
        total_reads: 0,
      },
    });
  });

  it('defaults status to true and type to 0', async () => {
    const { status: _s, type: _t, ...rest } = valid();
    const reply = await h.post('/api/template/add', rest, h.admin.token);
    expect(reply.body.template).toMatchObject({ status: true, type: 0 });
  });

  it('keeps subject lines unique by title, drops blanks and adds the subject input’s text', async () => {
    const reply = await h.post(
      '/api/template/add',
      {
        ...valid(),
        subjects: ['  One ', 'One', '', '   ', { title: 'Two', status: false }, 'Two'],
        subject: ' Three ',
      },
      h.admin.token,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.template.subjects.map((s: any) => [s.title, s.status])).toEqual([
      ['One', true],
      ['Two', false],
      ['Three', true],
    ]);
    const ids = reply.body.template.subjects.map((s: any) => s.id);
    expect(new Set(ids).size).toBe(3);
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['no topic', { topic: undefined }, 'Please select a topic'],
    ['a malformed topic', { topic: 'abc' }, 'Please select a topic'],
    ['a topic that does not exist', { topic: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, 'Please select a valid topic'],
    ['no heading', { heading: undefined }, 'Please enter a heading'],
    ['a blank heading', { heading: '   ' }, 'Please enter a heading'],
    ['a heading over 300 characters', { heading: 'h'.repeat(301) }, 'Heading must be 300 characters or less'],
    ['no body', { body: undefined }, 'Please enter the body'],
    ['a blank body', { body: ' ' }, 'Please enter the body'],
    ['a type other than 0 or 1', { type: 2 }, 'Type must be 0 (free) or 1 (premium)'],
    ['a type that is not a number', { type: 'premium' }, 'Type must be 0 (free) or 1 (premium)'],
    ['a status that is not a boolean', { status: 'yes' }, 'Status must be true (active) or false (paused)'],
    ['subjects that are not a list', { subjects: 'x' }, 'Subjects must be a list of subject lines'],
    [
      'an image that is not a data URL',
      { image: 'https://example.com/a.png' },
      'The image must be an uploaded image file (a base64 data URL)',
    ],
  ];

  it.each(refusals)('refuses %s with a clear 400 and stores nothing', async (_label, change, message) => {
    const before = (await h.get('/api/template/alltemplates', h.admin.token)).body.data.length;
    const reply = await h.post('/api/template/add', { ...valid(), ...change }, h.admin.token);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message });
    expect((await h.get('/api/template/alltemplates', h.admin.token)).body.data).toHaveLength(before);
  });

  it('edits a post from { info } and answers the spec’s message; absent fields keep their value', async () => {
    const post = await addPost(h, { topic, heading: 'Before', subjects: ['Keep me', 'Drop me'] });
    const keepId = post.subjects[0].id;
    const reply = await h.post(
      `/api/template/update/${post._id}`,
      {
        info: {
          heading: 'After',
          type: 1,
          topic: other,
          status: false,
          subjects: [{ id: keepId, title: 'Keep me', status: false }, 'New one'],
        },
      },
      h.admin.token,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      message: 'Template Edit Successfully',
      template: { _id: post._id, heading: 'After', body: post.body, type: 1, topic: other, status: false },
    });
    expect(reply.body.template.subjects).toEqual([
      { id: keepId, title: 'Keep me', status: false },
      { id: expect.any(String), title: 'New one', status: true },
    ]);
    const details = await h.get(`/api/template/details/${post._id}`, h.admin.token);
    expect(details.body.template).toMatchObject({ heading: 'After', createdAt: post.createdAt });
  });

  it('refuses bad edits with 400 and changes nothing', async () => {
    const post = await addPost(h, { topic, heading: 'Stays' });
    for (const [info, message] of [
      [{ heading: '' }, 'Please enter a heading'],
      [{ topic: 'bbbbbbbbbbbbbbbbbbbbbbbb' }, 'Please select a valid topic'],
      [{ type: 5 }, 'Type must be 0 (free) or 1 (premium)'],
    ] as const) {
      const reply = await h.post(`/api/template/update/${post._id}`, { info }, h.admin.token);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(message);
    }
    const details = await h.get(`/api/template/details/${post._id}`, h.admin.token);
    expect(details.body.template).toMatchObject({ heading: 'Stays', topic, type: 0 });
    const stream = await h.events.readStream(`template-${post._id}`);
    expect(stream).toHaveLength(1);
  });

  it('answers 404 for an unknown post and 400 for a malformed id', async () => {
    expect((await h.get('/api/template/details/cccccccccccccccccccccccc', h.admin.token)).body).toEqual({
      status: false,
      message: 'Post not found',
    });
    const update = await h.post('/api/template/update/cccccccccccccccccccccccc', { info: {} }, h.admin.token);
    expect(update.status).toBe(404);
    expect((await h.get('/api/template/details/nope', h.admin.token)).status).toBe(400);
  });

  it('pages posts by 10, newest first, with the total', async () => {
    const fresh = await startContent();
    try {
      const t = await addTopic(fresh, 'Paging');
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) ids.push((await addPost(fresh, { topic: t, heading: `Post ${i}` }))._id);
      const page1 = await fresh.get('/api/template/templates?page=1&limit=10', fresh.admin.token);
      expect(page1.status).toBe(200);
      expect(page1.body.total).toBe(23);
      expect(page1.body.data.map((p: any) => p._id)).toEqual(ids.slice().reverse().slice(0, 10));
      const page3 = await fresh.get('/api/template/templates?page=3&limit=10', fresh.admin.token);
      expect(page3.body.data.map((p: any) => p._id)).toEqual(ids.slice(0, 3).reverse());
      const defaults = await fresh.get('/api/template/templates', fresh.admin.token);
      expect(defaults.body.data).toHaveLength(10);
      const bad = await fresh.get('/api/template/templates?page=0', fresh.admin.token);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('page must be 1 or more');
    } finally {
      await fresh.close();
    }
  });

  it('lists every post, and every post with its subject-line analytics (0 until e-mail events exist)', async () => {
    const post = await addPost(h, { topic, subjects: ['Alpha', { title: 'Beta', status: false }] });
    const all = await h.get('/api/template/alltemplates', h.admin.token);
    expect(all.status).toBe(200);
    expect(all.body.data.some((p: any) => p._id === post._id)).toBe(true);
    expect(all.body.data[0].subjectLevelAnalysis).toBeUndefined();
    const subjects = await h.get('/api/template/allsubjecttemplates', h.admin.token);
    const found = subjects.body.data.find((p: any) => p._id === post._id);
    expect(found.subjectLevelAnalysis).toEqual([
      {
        id: post.subjects[0].id,
        subjectTitle: 'Alpha',
        subjectStatus: 'Active',
        emails_sent: 0,
        emails_open: 0,
        email_open_rate: 0,
      },
      {
        id: post.subjects[1].id,
        subjectTitle: 'Beta',
        subjectStatus: 'Pause',
        emails_sent: 0,
        emails_open: 0,
        email_open_rate: 0,
      },
    ]);
  });

  it('counts total_reads from the reads of signed-in readers', async () => {
    const post = await addPost(h, { topic });
    const reader = await h.user('user');
    await h.post(`/api/template/${post._id}`, {}, reader.token);
    await h.post(`/api/template/${post._id}`, {}, reader.token);
    await h.post(`/api/template/${post._id}`, {}); // anonymous: not a read
    const details = await h.get(`/api/template/details/${post._id}`, h.admin.token);
    expect(details.body.template.total_reads).toBe(2);
  });

  it('counts every one of many reads made at once, beside post updates (reads are projected per stream)', async () => {
    const post = await addPost(h, { topic });
    const readers = await Promise.all([h.user('user'), h.user('user')]);
    await Promise.all([
      ...Array.from({ length: 24 }, (_, i) =>
        h.post(`/api/template/${post._id}`, {}, (readers[i % 2] as { token: string }).token),
      ),
      h.post(`/api/template/update/${post._id}`, { info: { heading: 'Read at once' } }, h.admin.token),
    ]);
    const details = await h.get(`/api/template/details/${post._id}`, h.admin.token);
    expect(details.body.template.total_reads).toBe(24);
    expect(details.body.template.heading).toBe('Read at once');
    const feed = await h.post('/api/logs/getallpost?page=1&limit=10', {}, readers[0]?.token);
    expect(feed.body.templates.map((t: { heading: string }) => t.heading)).toContain('Read at once');
  });

  it('records TemplateAdded and TemplateUpdated with the full snapshot and the media URL, never a data URL', async () => {
    const image = await pngDataUrl(40, 30);
    const post = await addPost(h, { topic, image });
    await h.post(`/api/template/update/${post._id}`, { info: { heading: 'Renamed' } }, h.admin.token);
    const stream = await h.events.readStream(`template-${post._id}`);
    expect(stream.map((e) => e.type)).toEqual([
      ContentEvents.TemplateAdded.type,
      ContentEvents.TemplateUpdated.type,
    ]);
    for (const e of stream) {
      expect(ContentEvents.TemplateAdded.data.parse(e.data)).toEqual(e.data);
      expect((e.data as any).image).toBe(post.image);
      expect(JSON.stringify(e.data)).not.toContain('data:image');
      expect(e.actor).toBe(h.admin.userId);
    }
    expect((stream[1]!.data as any).heading).toBe('Renamed');
    expect(post.image).toMatch(/^\/api\/media\/[0-9a-f]{24}$/);
  });

  it('records no event for an edit that changes nothing', async () => {
    const post = await addPost(h, { topic, heading: 'Same' });
    const reply = await h.post(
      `/api/template/update/${post._id}`,
      { info: { heading: 'Same' } },
      h.admin.token,
    );
    expect(reply.status).toBe(200);
    expect(await h.events.readStream(`template-${post._id}`)).toHaveLength(1);
  });

  it('lets only admins use the admin post calls', async () => {
    const post = await addPost(h, { topic });
    const reader = await h.user('user');
    const premium = await h.user('premium');
    const calls: [string, string, unknown][] = [
      ['POST', '/api/template/add', valid()],
      ['GET', '/api/template/templates', undefined],
      ['GET', '/api/template/alltemplates', undefined],
      ['GET', '/api/template/allsubjecttemplates', undefined],
      ['GET', `/api/template/details/${post._id}`, undefined],
      ['POST', `/api/template/update/${post._id}`, { info: { heading: 'Hacked' } }],
      ['POST', '/api/template/generate-content', { prompt: 'hi' }],
    ];
    for (const [method, path, body] of calls) {
      expect((await h.call(method, path, body)).status, `${method} ${path} anonymous`).toBe(401);
      expect((await h.call(method, path, body, reader.token)).status, `${method} ${path} user`).toBe(403);
      expect((await h.call(method, path, body, premium.token)).status, `${method} ${path} premium`).toBe(403);
    }
    const details = await h.get(`/api/template/details/${post._id}`, h.admin.token);
    expect(details.body.template.heading).not.toBe('Hacked');
  });
});
