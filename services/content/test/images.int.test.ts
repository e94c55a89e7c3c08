import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileMediaStore, type MediaStore } from '../src/infra/media';
import { addPost, addTopic, type ContentHarness, pngDataUrl, startContent } from './harness';

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function fetchBytes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('uploaded images and /api/media', () => {
  let h: ContentHarness;
  let topic: string;
  beforeAll(async () => {
    h = await startContent();
    topic = await addTopic(h, 'Images');
  });
  afterAll(() => h.close());

  it('stores a real PNG and keeps only its /api/media URL on the post', async () => {
    const post = await addPost(h, { topic, image: await pngDataUrl(1200, 800) });
    expect(post.image).toMatch(/^\/api\/media\/[0-9a-f]{24}$/);
    const stored = await h.store.collection('templates').findOne({ _id: post._id });
    expect(JSON.stringify(stored)).not.toContain('data:');
    const { res, bytes } = await fetchBytes(h.url + post.image);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('etag')).toBeTruthy();
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 800]);
  });

  it.each([
    ['JPEG', 'jpeg', 'image/jpeg'],
    ['WebP', 'webp', 'image/webp'],
    ['GIF', 'gif', 'image/gif'],
    ['AVIF', 'avif', 'image/avif'],
  ] as const)('accepts a %s, served with its real content type', async (_label, format, type) => {
    const bytes = await sharp({ create: { width: 32, height: 16, channels: 3, background: '#aa3300' } })
      .toFormat(format)
      .toBuffer();
    // The label does not matter: the bytes decide.
    const post = await addPost(h, { topic, image: `data:image/png;base64,${bytes.toString('base64')}` });
    const res = await fetch(h.url + post.image);
    expect(res.headers.get('content-type')).toBe(type);
  });

  const refusals: [string, () => Promise<string>, string][] = [
    [
      'text disguised as image/png',
      async () => `data:image/png;base64,${Buffer.from('this is not a picture').toString('base64')}`,
      'The image must be a JPEG, PNG, WebP, GIF or AVIF picture',
    ],
    [
      'an SVG',
      async () =>
        `data:image/svg+xml;base64,${Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ).toString('base64')}`,
      'The image must be a JPEG, PNG, WebP, GIF or AVIF picture',
    ],
    [
      'a TIFF',
      async () =>
        `data:image/tiff;base64,${(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
            .tiff()
            .toBuffer()
        ).toString('base64')}`,
      'The image must be a JPEG, PNG, WebP, GIF or AVIF picture',
    ],
    [
      'a data URL that is not base64',
      async () => 'data:image/svg+xml;utf8,<svg></svg>',
      'The image must be an uploaded image file (a base64 data URL)',
    ],
    [
      'broken base64',
      async () => 'data:image/png;base64,@@@###',
      'The image must be an uploaded image file (a base64 data URL)',
    ],
    ['an empty file', async () => 'data:image/png;base64,', 'The image file is empty'],
    [
      'a data URL header of millions of parameters',
      async () => `data:${';'.repeat(4_000_000)}`,
      'The image must be an uploaded image file (a base64 data URL)',
    ],
    [
      'more than 5 MB',
      async () => {
        // A real PNG padded past 5 MB: still an image, refused for its size alone.
        const png = Buffer.from((await pngDataUrl(10, 10)).split(',')[1]!, 'base64');
        const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
        return `data:image/png;base64,${big.toString('base64')}`;
      },
      'The image must be 5 MB or smaller',
    ],
  ];

  it.each(refusals)('refuses %s with a clear 400 and stores nothing', async (_label, make, message) => {
    const before = await h.store.collection('templates').countDocuments({});
    const reply = await h.post(
      '/api/template/add',
      { heading: 'H', body: 'B', topic, image: await make() },
      h.admin.token,
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message });
    expect(await h.store.collection('templates').countDocuments({})).toBe(before);
  });

  it('answers 413 naming the image limit when the body is past the 8 MB body limit', async () => {
    const reply = await h.post(
      '/api/template/add',
      { heading: 'H', body: 'B', topic, image: `data:image/png;base64,${'A'.repeat(9 * 1024 * 1024)}` },
      h.admin.token,
    );
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({
      status: false,
      message: 'The request is too large: an image must be 5 MB or smaller',
    });
  });

  it('refuses a large body on the routes that carry no image, before reading it', async () => {
    const big = { token: 'x', heading: 'y'.repeat(300_000) };
    for (const path of ['/api/logs/getallpost', '/api/template/anything', '/api/topic/add']) {
      const reply = await h.post(path, big);
      expect(reply.status, path).toBe(413);
      expect(reply.body.status).toBe(false);
    }
  });

  it('accepts an image of exactly 5 MB (the body limit leaves room for its base64)', async () => {
    const png = Buffer.from((await pngDataUrl(10, 10)).split(',')[1]!, 'base64');
    const exact = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 - png.length)]);
    const post = await addPost(h, { topic, image: `data:image/png;base64,${exact.toString('base64')}` });
    const { bytes } = await fetchBytes(h.url + post.image);
    expect(bytes.length).toBe(5 * 1024 * 1024);
  });

  it('keeps the image on update when given its /api/media URL or nothing; replaces and clears it', async () => {
    const post = await addPost(h, { topic, image: await pngDataUrl(20, 20) });
    let reply = await h.post(
      `/api/template/update/${post._id}`,
      { info: { image: post.image, heading: 'x' } },
      h.admin.token,
    );
    expect(reply.body.template.image).toBe(post.image);
    reply = await h.post(`/api/template/update/${post._id}`, { info: { heading: 'y' } }, h.admin.token);
    expect(reply.body.template.image).toBe(post.image);
    reply = await h.post(
      `/api/template/update/${post._id}`,
      { info: { image: await pngDataUrl(30, 30, '#00ff00') } },
      h.admin.token,
    );
    expect(reply.body.template.image).toMatch(/^\/api\/media\//);
    expect(reply.body.template.image).not.toBe(post.image);
    reply = await h.post(`/api/template/update/${post._id}`, { info: { image: '' } }, h.admin.token);
    expect(reply.body.template.image).toBe('');
    reply = await h.post(
      `/api/template/update/${post._id}`,
      { info: { image: 'data:text/plain;base64,aGVsbG8=' } },
      h.admin.token,
    );
    expect(reply.status).toBe(400);
  });

  it('serves 480 and 960 wide WebP variants, never enlarged, cached in the media store', async () => {
    const post = await addPost(h, { topic, image: await pngDataUrl(1200, 800) });
    for (const width of [480, 960]) {
      const { res, bytes } = await fetchBytes(`${h.url}${post.image}?w=${width}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, (width * 2) / 3]);
    }
    const variants = h.store.collection<{ _id: string; variantId: string }>('media_variants');
    const id = post.image.split('/').pop();
    const cached = await variants.findOne({ _id: `${id}:w480` });
    expect(cached).not.toBeNull();
    expect(await h.media.get(cached!.variantId)).toMatchObject({ contentType: 'image/webp' });
    // A second request is answered from the cache: no new variant is made.
    await fetch(`${h.url}${post.image}?w=480`);
    expect((await variants.findOne({ _id: `${id}:w480` }))?.variantId).toBe(cached!.variantId);

    const small = await addPost(h, { topic, image: await pngDataUrl(300, 200) });
    const { bytes } = await fetchBytes(`${h.url}${small.image}?w=960`);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 300]);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const post = await addPost(h, { topic, image: await pngDataUrl(50, 50) });
    const first = await fetch(`${h.url}${post.image}?w=480`);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await fetch(`${h.url}${post.image}?w=480`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const original = await fetch(h.url + post.image);
    expect(original.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 JSON for unknown ids and 400 for a bad width', async () => {
    for (const path of [
      '/api/media/dddddddddddddddddddddddd',
      '/api/media/not-an-id',
      '/api/media/..%2f..',
    ]) {
      const reply = await h.get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body.status).toBe(false);
    }
    const unknownVariant = await h.get('/api/media/dddddddddddddddddddddddd?w=480');
    expect(unknownVariant.body).toEqual({ status: false, message: 'Image not found' });
    const post = await addPost(h, { topic, image: await pngDataUrl(50, 50) });
    for (const w of ['100', 'abc', '4800']) {
      const reply = await h.get(`${post.image}?w=${w}`);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ status: false, message: 'w must be 480 or 960' });
    }
  });
});

describe('image dimensions: a small file can hold a huge picture', () => {
  const MAX_PIXELS = 2_000_000;
  let h: ContentHarness;
  let dir: string;
  let topic: string;
  /** The media store the service writes to; `stored` lists the content types of what it stored. */
  let media: MediaStore & { stored: string[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-media-'));
    const files = createFileMediaStore(dir);
    media = {
      ...files,
      stored: [],
      async put(bytes, contentType) {
        media.stored.push(contentType);
        return files.put(bytes, contentType);
      },
    };
    h = await startContent({ media, imageMaxPixels: MAX_PIXELS });
    topic = await addTopic(h, 'Sizes');
  });
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A real PNG, interlaced (Adam7), as a data URL: a few KB for millions of pixels of one colour. */
  const interlacedPng = async (width: number, height: number) => {
    const png = await sharp({ create: { width, height, channels: 3, background: '#224466' } })
      .png({ progressive: true })
      .toBuffer();
    return { png, dataUrl: `data:image/png;base64,${png.toString('base64')}` };
  };

  it.each([
    ['more pixels than IMAGE_MAX_PIXELS', 2_000, 1_001, 'this one is 2000 × 1001'],
    ['a side longer than WebP allows, however few its pixels', 16_384, 8, 'this one is 16384 × 8'],
  ])(
    'refuses an interlaced PNG of %s with a clear 400, storing nothing',
    async (_label, width, height, size) => {
      const { png, dataUrl } = await interlacedPng(width, height);
      expect(png.length).toBeLessThan(100_000);
      const before = await h.store.collection('templates').countDocuments({});
      const reply = await h.post(
        '/api/template/add',
        { heading: 'H', body: 'B', topic, image: dataUrl },
        h.admin.token,
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        status: false,
        message: `The image must be at most 2 megapixels and 16,383 pixels on a side (${size})`,
      });
      expect(await h.store.collection('templates').countDocuments({})).toBe(before);
      expect(media.stored).toEqual([]);
    },
  );

  it('accepts an image of exactly IMAGE_MAX_PIXELS', async () => {
    const post = await addPost(h, { topic, image: (await interlacedPng(2_000, 1_000)).dataUrl });
    expect(post.image).toMatch(/^\/api\/media\/[0-9a-f]{24}$/);
  });

  it('makes a variant once when its first requests come in parallel', async () => {
    const post = await addPost(h, { topic, image: (await interlacedPng(1_600, 1_200)).dataUrl });
    media.stored.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await fetch(`${h.url}${post.image}?w=480`);
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          bytes: Buffer.from(await res.arrayBuffer()),
        };
      }),
    );
    expect(answers.map((a) => [a.status, a.type])).toEqual(Array(8).fill([200, 'image/webp']));
    expect(new Set(answers.map((a) => a.bytes.toString('base64'))).size).toBe(1);
    expect(media.stored).toEqual(['image/webp']);
    expect((await sharp(answers[0]!.bytes).metadata()).width).toBe(480);
  });

  it('serves an original stored before the limits as it is, never decoding it', async () => {
    const { png } = await interlacedPng(2_000, 1_500);
    const id = await media.put(png, 'image/png');
    media.stored.length = 0;
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${h.url}/api/media/${id}?w=960`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
    }
    expect(media.stored).toEqual([]);
  });
});
