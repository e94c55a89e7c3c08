import { ContentEvents } from '@nudge/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS as WEB_DEFAULTS } from '../../../web/src/features/settings/defaults';
import { type ContentHarness, startContent } from './harness';

const ADMIN_ONLY_FIELDS = [
  'footersitetitle',
  'subjectprefix',
  'emaillogo',
  'frontendurl',
  'frontendshorturl',
  'instagramurl',
  'trackingid',
  'clarityid',
  'posthoghost',
  'posthogkey',
  'emailrecommendation',
  'emailcheckin',
  'emailfullpost',
  'webeventretentiondays',
];

describe('site settings', () => {
  let h: ContentHarness;
  beforeAll(async () => {
    h = await startContent();
  });
  afterAll(() => h.close());

  const update = (settings: unknown, token = h.admin.token) =>
    h.put('/api/sitesettings/update', { settings }, token);

  it('fetches every field of both specs, with the web app’s defaults where it has them', async () => {
    const reply = await h.get('/api/sitesettings/fetch');
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(true);
    const settings = reply.body.settings;
    expect(settings).toMatchObject(WEB_DEFAULTS);
    for (const field of ADMIN_ONLY_FIELDS) expect(settings, field).toHaveProperty(field);
    expect(settings.levels).toEqual([
      { title: 'Beginner', count: 0 },
      { title: 'Intermediate', count: 20 },
      { title: 'Advanced', count: 40 },
    ]);
    expect(settings.logoutredirect).toBe('login');
  });

  it('saves valid settings, answers them with defaults filled and records the stored object', async () => {
    const reply = await update({
      sitetitle: 'Calm Daily',
      buttoncolor: '#0a0',
      headingcolor: 'RebeccaPurple',
      headingfont: 'Georgia, serif',
      logo: 'https://cdn.example.com/logo.png',
      aboutpage: '/about-us',
      logoutredirect: 'feed',
      subscription: true,
      levels: [
        { title: 'Expert', count: 50 },
        { title: 'Novice', count: 0 },
        { title: 'Keen', count: 10 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe(true);
    expect(reply.body.settings).toMatchObject({
      sitetitle: 'Calm Daily',
      buttoncolor: '#0a0',
      logoutredirect: 'feed',
      subscription: true,
      postsingular: 'post',
      levels: [
        { title: 'Novice', count: 0 },
        { title: 'Keen', count: 10 },
        { title: 'Expert', count: 50 },
      ],
    });
    expect((await h.get('/api/sitesettings/fetch')).body.settings).toEqual(reply.body.settings);
    const stream = await h.events.readStream('sitesettings');
    const last = stream.at(-1)!;
    expect(last.type).toBe(ContentEvents.SiteSettingsUpdated.type);
    expect((last.data as any).settings).toMatchObject({ sitetitle: 'Calm Daily', subscription: true });
    expect((last.data as any).settings.postsingular).toBeUndefined();
  });

  it('keeps fields not sent, and puts a field set to null back to its default', async () => {
    await update({ postplural: 'nudges', sitetitle: 'Kept' });
    await update({ postsingular: 'nudge' });
    let settings = (await h.get('/api/sitesettings/fetch')).body.settings;
    expect(settings).toMatchObject({ postplural: 'nudges', postsingular: 'nudge', sitetitle: 'Kept' });
    await update({ postplural: null });
    settings = (await h.get('/api/sitesettings/fetch')).body.settings;
    expect(settings).toMatchObject({ postplural: 'posts', postsingular: 'nudge' });
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    [
      'a colour that is not one',
      { buttoncolor: 'reddish' },
      'buttoncolor must be a colour like #ff0000 or a CSS colour name',
    ],
    [
      'a CSS injection in a colour',
      { backgroundcolor: 'red; background: url(x)' },
      'backgroundcolor must be a colour like #ff0000 or a CSS colour name',
    ],
    [
      'a four-digit hex colour',
      { headingcolor: '#abcd' },
      'headingcolor must be a colour like #ff0000 or a CSS colour name',
    ],
    ['an empty font', { defaultfont: '  ' }, 'defaultfont must be a font name'],
    [
      'a font over 100 characters',
      { headingfont: 'f'.repeat(101) },
      'headingfont must be 100 characters or less',
    ],
    [
      'a font that could end the CSS declaration',
      { paragraphfont: 'Arial; color: red' },
      'paragraphfont must be a font name (no ; { } < > or \\)',
    ],
    [
      'a javascript: URL',
      { logo: 'javascript:alert(1)' },
      'logo must be an http(s) URL or a path starting with /',
    ],
    [
      'a protocol-relative URL',
      { aboutpage: '//evil.example.com' },
      'aboutpage must be an http(s) URL or a path starting with /',
    ],
    ['a boolean given as text', { googleauth: 'true' }, 'googleauth must be true or false'],
    ['another logoutredirect', { logoutredirect: 'home' }, 'logoutredirect must be feed or login'],
    ['no levels', { levels: [] }, 'You must have at least one level!'],
    [
      'two levels with one count',
      {
        levels: [
          { title: 'A', count: 5 },
          { title: 'B', count: 5 },
        ],
      },
      'A level with this count already exists!',
    ],
    [
      'a negative count',
      { levels: [{ title: 'A', count: -1 }] },
      'Level count must be a whole number, 0 or more',
    ],
    [
      'a fractional count',
      { levels: [{ title: 'A', count: 1.5 }] },
      'Level count must be a whole number, 0 or more',
    ],
    ['a blank level title', { levels: [{ title: '  ', count: 1 }] }, 'Level title must not be blank'],
    ['an unknown key', { sitetitle: 'x', favourite: 'y' }, 'Unknown setting: favourite'],
    [
      'a prompt prefix over 5000',
      { bodypromptprefix: 'p'.repeat(5001) },
      'bodypromptprefix must be 5000 characters or less',
    ],
  ];

  it.each(refusals)('refuses %s with a clear 400 and changes nothing', async (_label, settings, message) => {
    const before = (await h.get('/api/sitesettings/fetch')).body.settings;
    const versions = (await h.events.readStream('sitesettings')).length;
    const reply = await update(settings);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message });
    expect((await h.get('/api/sitesettings/fetch')).body.settings).toEqual(before);
    expect(await h.events.readStream('sitesettings')).toHaveLength(versions);
  });

  it('needs the settings object', async () => {
    const reply = await h.put('/api/sitesettings/update', { sitetitle: 'flat' }, h.admin.token);
    expect(reply.status).toBe(400);
  });

  it('lets only admins save settings', async () => {
    const reader = await h.user('premium');
    expect((await h.put('/api/sitesettings/update', { settings: { sitetitle: 'x' } })).status).toBe(401);
    expect((await update({ sitetitle: 'x' }, reader.token)).status).toBe(403);
    expect((await h.get('/api/sitesettings/fetch')).body.settings.sitetitle).not.toBe('x');
  });
});
