import {
  ContentEvents,
  dayKey,
  expiryInstant,
  isCssColour,
  isSiteUrl,
  SiteSettingsInput,
} from '@nudge/contracts';
import { given } from '@nudge/platform/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptedContentType, decodedLength, mediaIdOf, parseDataUrl } from '../src/domain/image';
import { isLive, normaliseExpiry } from '../src/domain/promotion';
import { recommendationSlices } from '../src/domain/recommendations';
import {
  applySettingsChanges,
  DEFAULT_SITE_SETTINGS,
  settingsDecider,
  withDefaults,
} from '../src/domain/site-settings';
import { normaliseSubjects, type TemplateState, templateDecider } from '../src/domain/template';
import { pickTodayPost, previousDays } from '../src/domain/today';
import { isTopicNameTaken, topicKey, topicsDecider } from '../src/domain/topic';
import { placeInFeed } from '../src/events/templates-projection';
import { messageOf } from '../src/http/parse';

let n = 0;
const ids = () => `s${++n}`;

describe('subject lines', () => {
  it('trims, drops blanks, keeps the first of equal titles and adds the input text', () => {
    const lines = normaliseSubjects([' A ', '', 'A', { title: 'B', status: false }], ' C ', [], ids);
    expect(lines.map((l) => [l.title, l.status])).toEqual([
      ['A', true],
      ['B', false],
      ['C', true],
    ]);
  });

  it('keeps ids of existing lines by id or by title', () => {
    const existing = [
      { id: 'x1', title: 'Old', status: true },
      { id: 'x2', title: 'Other', status: false },
    ];
    const lines = normaliseSubjects(
      [{ id: 'x1', title: 'Renamed' }, 'Other', 'New'],
      undefined,
      existing,
      () => 'fresh',
    );
    expect(lines).toEqual([
      { id: 'x1', title: 'Renamed', status: true },
      { id: 'x2', title: 'Other', status: false },
      { id: 'fresh', title: 'New', status: true },
    ]);
  });
});

describe('the post aggregate', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  const fields = {
    heading: 'H',
    body: 'B',
    image: '',
    type: 0 as const,
    topic: 't',
    status: true,
    subjects: ['S'],
  };
  const add = { kind: 'add' as const, templateId: 'p1', fields, now, newSubjectId: () => 'sid' };
  const update = (changes: object) => ({ kind: 'update' as const, changes, newSubjectId: ids });

  it('adds a full snapshot', async () => {
    const added = await given(templateDecider, []).when(add);
    expect(added).toEqual([
      {
        type: ContentEvents.TemplateAdded.type,
        data: {
          templateId: 'p1',
          heading: 'H',
          body: 'B',
          image: '',
          type: 0,
          topic: 't',
          status: true,
          subjects: [{ id: 'sid', title: 'S', status: true }],
          createdAt: now.toISOString(),
        },
      },
    ]);
    expect(given(templateDecider, added).state).toMatchObject({
      _id: 'p1',
      version: 1,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('updates with the whole snapshot, and decides nothing for no change', async () => {
    const added = await given(templateDecider, []).when(add);
    expect(await given(templateDecider, added).when(update({ heading: 'H' }))).toEqual([]);
    const [event] = await given(templateDecider, added).when(update({ type: 1 }));
    expect(event).toEqual({
      type: ContentEvents.TemplateUpdated.type,
      data: { ...(added[0]!.data as object), type: 1 },
    });
  });

  it('refuses an update of a post never added: not found', async () => {
    await expect(given(templateDecider, []).when(update({ type: 1 }))).rejects.toMatchObject({
      httpStatus: 404,
    });
  });
});

describe("today's post", () => {
  it('finds the calendar day in a time zone, UTC for an unknown one', () => {
    const at = new Date('2026-03-10T20:00:00Z');
    expect(dayKey(at, 'UTC')).toBe('2026-03-10');
    expect(dayKey(at, 'Asia/Tokyo')).toBe('2026-03-11');
    expect(dayKey(at, 'America/Los_Angeles')).toBe('2026-03-10');
    expect(dayKey(at, 'Not/AZone')).toBe('2026-03-10');
  });

  it('lists the previous days across month and year ends', () => {
    expect(previousDays('2026-03-01', 3)).toEqual(['2026-02-28', '2026-02-27', '2026-02-26']);
    expect(previousDays('2026-01-01', 1)).toEqual(['2025-12-31']);
  });

  it('picks the same post for the same seed, avoids recent picks, and falls back when all are recent', () => {
    const candidates = ['a', 'b', 'c', 'd'];
    expect(pickTodayPost(candidates, new Set(), 'u:2026-01-01')).toBe(
      pickTodayPost([...candidates].reverse(), new Set(), 'u:2026-01-01'),
    );
    expect(pickTodayPost(candidates, new Set(['a', 'b', 'c']), 'seed')).toBe('d');
    expect(candidates).toContain(pickTodayPost(candidates, new Set(candidates), 'seed'));
    expect(pickTodayPost([], new Set(), 'seed')).toBeNull();
  });

  it('spreads picks over the candidates', () => {
    const candidates = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const picked = new Set(
      Array.from({ length: 200 }, (_, i) => pickTodayPost(candidates, new Set(), `user${i}:2026-01-01`)),
    );
    expect(picked.size).toBeGreaterThanOrEqual(8);
  });
});

describe('recommendation pages', () => {
  it('takes the same topic first, then the others', () => {
    expect(recommendationSlices(7, 6, 1, 5)).toEqual({
      same: { skip: 0, limit: 5 },
      other: { skip: 0, limit: 0 },
      hasMore: true,
    });
    expect(recommendationSlices(7, 6, 2, 5)).toEqual({
      same: { skip: 5, limit: 2 },
      other: { skip: 0, limit: 3 },
      hasMore: true,
    });
    expect(recommendationSlices(7, 6, 3, 5)).toEqual({
      same: { skip: 7, limit: 0 },
      other: { skip: 3, limit: 3 },
      hasMore: false,
    });
    expect(recommendationSlices(0, 0, 1, 5).hasMore).toBe(false);
    expect(recommendationSlices(5, 0, 1, 5).hasMore).toBe(false);
  });
});

describe('image rules', () => {
  it('reads base64 data URLs whatever type they claim', () => {
    expect(parseDataUrl('data:image/png;base64,AAAA')).toEqual({ kind: 'data', base64: 'AAAA' });
    expect(parseDataUrl('data:;base64,AA==')).toEqual({ kind: 'data', base64: 'AA==' });
    expect(parseDataUrl('data:image/png;name=a.png;base64,AA\nAA')).toEqual({ kind: 'data', base64: 'AAAA' });
    expect(parseDataUrl('data:image/svg+xml,<svg/>').kind).toBe('invalid');
    expect(parseDataUrl('https://x/y.png').kind).toBe('invalid');
    expect(parseDataUrl('data:image/png;base64,!!!').kind).toBe('invalid');
    expect(parseDataUrl('DATA:image/png;BASE64,AAAA').kind).toBe('data');
    expect(parseDataUrl('data:image/png;base64').kind).toBe('invalid');
  });

  it('reads a data URL of millions of parameters (an 8 MB body) in one pass, without running out of stack', () => {
    const semicolons = ';'.repeat(4_000_000);
    expect(parseDataUrl(`data:${semicolons}`).kind).toBe('invalid');
    expect(parseDataUrl(`data:${semicolons};base64,AAAA`)).toEqual({ kind: 'data', base64: 'AAAA' });
  });

  it('computes decoded sizes and accepts only the five formats', () => {
    expect(decodedLength(Buffer.alloc(10).toString('base64'))).toBe(10);
    expect(decodedLength(Buffer.alloc(11).toString('base64'))).toBe(11);
    expect(decodedLength(Buffer.alloc(12).toString('base64'))).toBe(12);
    expect(acceptedContentType('png')).toBe('image/png');
    expect(acceptedContentType('heif', 'av1')).toBe('image/avif');
    expect(acceptedContentType('heif', 'hevc')).toBeUndefined();
    expect(acceptedContentType('svg')).toBeUndefined();
    expect(acceptedContentType('tiff')).toBeUndefined();
  });

  it('recognises only our media URLs', () => {
    expect(mediaIdOf('/api/media/0123456789abcdef01234567')).toBe('0123456789abcdef01234567');
    expect(mediaIdOf('/api/media/../secret')).toBeUndefined();
    expect(mediaIdOf('https://x/api/media/0123456789abcdef01234567')).toBeUndefined();
  });
});

describe('promotions', () => {
  it('normalises expiry: blank = never, a date stays a date, an instant becomes ISO', () => {
    expect(normaliseExpiry('')).toBeNull();
    expect(normaliseExpiry(null)).toBeNull();
    expect(normaliseExpiry(undefined)).toBeNull();
    expect(normaliseExpiry(' 2026-05-01 ')).toBe('2026-05-01');
    expect(normaliseExpiry('2026-05-01T10:00:00+02:00')).toBe('2026-05-01T08:00:00.000Z');
    expect(Number.isNaN(expiryInstant('tomorrow'))).toBe(true);
    expect(Number.isNaN(expiryInstant('1'))).toBe(true);
  });

  it('is live while active and before the end of its expiry', () => {
    const at = new Date('2026-05-01T23:59:59Z');
    expect(isLive({ status: true, expires: null }, at)).toBe(true);
    expect(isLive({ status: false, expires: null }, at)).toBe(false);
    expect(isLive({ status: true, expires: '2026-05-01' }, at)).toBe(true);
    expect(isLive({ status: true, expires: '2026-04-30' }, at)).toBe(false);
    expect(isLive({ status: true, expires: '2026-05-01T23:59:59.000Z' }, at)).toBe(false);
  });
});

describe('site settings', () => {
  it('fills defaults, ignores unknown stored keys, and null resets a field', async () => {
    expect(withDefaults({})).toEqual(DEFAULT_SITE_SETTINGS);
    expect(withDefaults({ sitetitle: 'X', junk: 1 } as never).sitetitle).toBe('X');
    expect(withDefaults({ sitetitle: 'X' } as never)).not.toHaveProperty('junk');
    expect(
      applySettingsChanges({ sitetitle: 'X', postplural: 'Y' }, { sitetitle: null, logo: '/l.png' }),
    ).toEqual({
      postplural: 'Y',
      logo: '/l.png',
    });
    const titled = { type: ContentEvents.SiteSettingsUpdated.type, data: { settings: { sitetitle: 'X' } } };
    expect(await given(settingsDecider, [titled]).when({ sitetitle: 'X' })).toEqual([]);
  });

  it('validates colours and URLs', () => {
    for (const ok of ['#fff', '#A0B1C2', 'red', 'RebeccaPurple', 'transparent'])
      expect(isCssColour(ok), ok).toBe(true);
    for (const bad of ['#ffff', 'fff', 'red;', 'url(x)', '']) expect(isCssColour(bad), bad).toBe(false);
    for (const ok of ['', '/aboutus', 'https://a.example/x', 'http://localhost:8080'])
      expect(isSiteUrl(ok), ok).toBe(true);
    for (const bad of ['//evil', 'javascript:alert(1)', 'ftp://x', 'aboutus', '/a b'])
      expect(isSiteUrl(bad), bad).toBe(false);
  });

  it('sorts levels ascending on input', () => {
    const parsed = SiteSettingsInput.parse({
      levels: [
        { title: 'B', count: 9 },
        { title: ' A ', count: 1 },
      ],
    });
    expect(parsed.levels).toEqual([
      { title: 'A', count: 1 },
      { title: 'B', count: 9 },
    ]);
  });
});

describe('topics', () => {
  it('compares names trimmed, spaces collapsed, case-insensitively', () => {
    expect(topicKey('  Food   AND drink ')).toBe('food and drink');
    const topics = [{ _id: '1', topic: 'Sleep', key: 'sleep', default: false, createdAt: '' }];
    expect(isTopicNameTaken(topics, ' SLEEP')).toBe(true);
    expect(isTopicNameTaken(topics, 'Sleeping')).toBe(false);
  });

  it('refuses a name taken already (409), whatever its case and spaces', async () => {
    const sleep = {
      type: ContentEvents.TopicAdded.type,
      data: { topicId: '1', topic: 'Sleep', default: false, createdAt: '2026-01-01T00:00:00.000Z' },
    };
    const add = (topic: string) => ({ topicId: '2', topic, default: false, now: new Date() });
    await expect(given(topicsDecider, [sleep]).when(add(' SLEEP'))).rejects.toMatchObject({
      httpStatus: 409,
    });
    expect(await given(topicsDecider, [sleep]).when(add('Sleeping'))).toHaveLength(1);
  });
});

describe('validation messages', () => {
  const first = (schema: z.ZodType, value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error('expected a failure');
    return messageOf(result.error);
  };

  it('sends our texts verbatim and gives zod’s defaults their field', () => {
    expect(first(z.object({ a: z.string().min(1, 'Please enter a') }), { a: '' })).toBe('Please enter a');
    expect(
      first(z.object({ levels: z.array(z.number()).min(1, 'You must have at least one level!') }), {
        levels: [],
      }),
    ).toBe('You must have at least one level!');
    expect(first(z.object({ a: z.object({ b: z.number() }) }), { a: { b: 'x' } })).toBe(
      'a.b: Invalid input: expected number, received string',
    );
    expect(first(z.object({ id: z.string().regex(/^x$/, 'must be a valid id') }), { id: 'y' })).toBe(
      'id: must be a valid id',
    );
    expect(first(z.object({ limit: z.number().max(5, 'limit must be at most 5') }), { limit: 9 })).toBe(
      'limit must be at most 5',
    );
  });
});

describe('the feed order', () => {
  const post = (id: string, at: string, status = true, topic = 't') =>
    ({ _id: id, createdAt: at, status, topic }) as TemplateState;

  it('keeps active posts newest first, moves a changed post and drops a paused one', () => {
    let order = placeInFeed([], post('a', '2026-01-01'));
    order = placeInFeed(order, post('c', '2026-01-03'));
    order = placeInFeed(order, post('b', '2026-01-02'));
    expect(order.map((p) => p.id)).toEqual(['c', 'b', 'a']);
    order = placeInFeed(order, post('b', '2026-01-02', true, 'other'));
    expect(order).toEqual([
      { id: 'c', topic: 't', at: '2026-01-03' },
      { id: 'b', topic: 'other', at: '2026-01-02' },
      { id: 'a', topic: 't', at: '2026-01-01' },
    ]);
    order = placeInFeed(order, post('c', '2026-01-03', false));
    expect(order.map((p) => p.id)).toEqual(['b', 'a']);
    // Equal times: the larger id first; applying the same state again changes nothing.
    order = placeInFeed(order, post('z', '2026-01-02'));
    expect(order.map((p) => p.id)).toEqual(['z', 'b', 'a']);
    expect(placeInFeed(order, post('z', '2026-01-02'))).toEqual(order);
  });
});
