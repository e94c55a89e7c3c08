import { ContentEvents } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentHarness, pngDataUrl, startContent } from './harness';

describe('promotions', () => {
  let h: ContentHarness;
  beforeAll(async () => {
    h = await startContent();
    h.setNow('2026-03-10T09:00:00Z');
  });
  afterAll(() => h.close());

  const valid = () => ({
    heading: 'Join the spring challenge',
    body: 'Thirty days of small steps.',
    btntext: 'Join now',
    btnurl: 'https://example.com/spring',
    imageurl: '',
    image: '',
    expires: '',
    status: true,
  });
  const add = (body: Record<string, unknown>) => h.post('/api/promotion/add', body, h.admin.token);

  it('adds a promotion with the spec’s message; blank expiry means never', async () => {
    const reply = await add(valid());
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      message: 'Promotion Added Successfully',
      promotion: { ...valid(), expires: null, _id: expect.any(String), createdAt: expect.any(String) },
    });
  });

  it('defaults status to true and the optional texts to blank', async () => {
    const reply = await add({ heading: 'Only a heading' });
    expect(reply.body.promotion).toMatchObject({
      heading: 'Only a heading',
      body: '',
      btntext: '',
      btnurl: '',
      image: '',
      imageurl: '',
      expires: null,
      status: true,
    });
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['no heading', { heading: '' }, 'Please enter a heading'],
    ['a heading over 150', { heading: 'h'.repeat(151) }, 'Heading must be 150 characters or less'],
    ['a body over 500', { body: 'b'.repeat(501) }, 'Body must be 500 characters or less'],
    ['button text over 100', { btntext: 't'.repeat(101) }, 'Button text must be 100 characters or less'],
    [
      'a bad button URL',
      { btnurl: 'javascript:alert(1)' },
      'Button URL must be an http(s) URL or a path starting with /',
    ],
    ['a bad expiry', { expires: 'next week' }, 'Expiry must be a date like 2026-12-31, or blank for never'],
    ['a bad status', { status: 'on' }, 'Status must be true (active) or false (paused)'],
    [
      'an image that is not one',
      { image: 'data:image/png;base64,aGVsbG8=' },
      'The image must be a JPEG, PNG, WebP, GIF or AVIF picture',
    ],
    [
      'an image URL that is not http(s)',
      { imageurl: 'ftp://x/y.png' },
      'The image URL must be an http(s) address or an uploaded image',
    ],
  ];

  it.each(refusals)('refuses %s with a clear 400 and stores nothing', async (_label, change, message) => {
    const before = (await h.get('/api/promotion/all', h.admin.token)).body.data.length;
    const reply = await add({ ...valid(), ...change });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message });
    expect((await h.get('/api/promotion/all', h.admin.token)).body.data).toHaveLength(before);
  });

  it('accepts the limits exactly', async () => {
    const reply = await add({ heading: 'h'.repeat(150), body: 'b'.repeat(500), btntext: 't'.repeat(100) });
    expect(reply.status).toBe(200);
  });

  it('stores an uploaded image through the media port and keeps an http(s) image URL as is', async () => {
    const reply = await add({
      ...valid(),
      image: await pngDataUrl(64, 64),
      imageurl: 'https://cdn.example.com/banner.png',
    });
    expect(reply.body.promotion.image).toMatch(/^\/api\/media\/[0-9a-f]{24}$/);
    expect(reply.body.promotion.imageurl).toBe('https://cdn.example.com/banner.png');
    expect((await fetch(h.url + reply.body.promotion.image)).headers.get('content-type')).toBe('image/png');
    const update = await h.post(
      `/api/promotion/update/${reply.body.promotion._id}`,
      {
        info: {
          image: reply.body.promotion.image,
          imageurl: 'https://cdn.example.com/banner.png',
          heading: 'New',
        },
      },
      h.admin.token,
    );
    expect(update.body.promotion).toMatchObject({
      image: reply.body.promotion.image,
      imageurl: 'https://cdn.example.com/banner.png',
      heading: 'New',
    });
  });

  it('shows details, lists all newest first and edits with { info }', async () => {
    const added = (await add({ ...valid(), heading: 'Editable' })).body.promotion;
    const details = await h.get(`/api/promotion/details/${added._id}`, h.admin.token);
    expect(details.body).toEqual({ status: true, promotion: added });
    const all = await h.get('/api/promotion/all', h.admin.token);
    expect(all.body.data[0]._id).toBe(added._id);
    const edited = await h.post(
      `/api/promotion/update/${added._id}`,
      { info: { heading: 'Edited', status: false, expires: '2026-12-31' } },
      h.admin.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      status: true,
      message: 'Promotion Edit Successfully',
      promotion: { heading: 'Edited', status: false, expires: '2026-12-31', body: added.body },
    });
    const bad = await h.post(
      `/api/promotion/update/${added._id}`,
      { info: { btntext: 'x'.repeat(101) } },
      h.admin.token,
    );
    expect(bad.status).toBe(400);
    expect((await h.get(`/api/promotion/details/${added._id}`, h.admin.token)).body.promotion.heading).toBe(
      'Edited',
    );
    const stream = await h.events.readStream(`promotion-${added._id}`);
    expect(stream.map((e) => e.type)).toEqual([
      ContentEvents.PromotionAdded.type,
      ContentEvents.PromotionUpdated.type,
    ]);
    expect((await h.get('/api/promotion/details/ffffffffffffffffffffffff', h.admin.token)).status).toBe(404);
  });

  it('shows readers only active promotions that have not expired', async () => {
    const fresh = await startContent();
    try {
      fresh.setNow('2026-03-10T09:00:00Z');
      const a = (body: Record<string, unknown>) => fresh.post('/api/promotion/add', body, fresh.admin.token);
      const never = (await a({ heading: 'Never expires' })).body.promotion;
      const future = (await a({ heading: 'Future', expires: '2026-03-20' })).body.promotion;
      const today = (await a({ heading: 'Ends today', expires: '2026-03-10' })).body.promotion;
      const instant = (await a({ heading: 'Ends at noon', expires: '2026-03-10T12:00:00Z' })).body.promotion;
      await a({ heading: 'Expired', expires: '2026-03-09' });
      await a({ heading: 'Paused', status: false });
      const active = await fresh.get('/api/promotion/active');
      expect(active.status).toBe(200);
      expect(active.body.promotions.map((p: any) => p.heading).sort()).toEqual(
        [never.heading, future.heading, today.heading, instant.heading].sort(),
      );
      expect(Object.keys(active.body.promotions[0]).sort()).toEqual(
        ['_id', 'body', 'btntext', 'btnurl', 'expires', 'heading', 'image', 'imageurl'].sort(),
      );
      expect(instant.expires).toBe('2026-03-10T12:00:00.000Z');
      fresh.setNow('2026-03-10T12:00:01Z');
      expect(
        (await fresh.get('/api/promotion/active')).body.promotions.map((p: any) => p.heading),
      ).not.toContain('Ends at noon');
      fresh.setNow('2026-03-11T00:00:00Z');
      expect(
        (await fresh.get('/api/promotion/active')).body.promotions.map((p: any) => p.heading).sort(),
      ).toEqual(['Future', 'Never expires']);
    } finally {
      await fresh.close();
    }
  });

  it('lets only admins manage promotions', async () => {
    const reader = await h.user('premium');
    const id = (await add(valid())).body.promotion._id;
    for (const [method, path, body] of [
      ['GET', '/api/promotion/all', undefined],
      ['POST', '/api/promotion/add', valid()],
      ['GET', `/api/promotion/details/${id}`, undefined],
      ['POST', `/api/promotion/update/${id}`, { info: { heading: 'x' } }],
    ] as const) {
      expect((await h.call(method, path, body)).status).toBe(401);
      expect((await h.call(method, path, body, reader.token)).status).toBe(403);
    }
  });
});
