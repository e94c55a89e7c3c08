import { describe, expect, it, vi } from 'vitest';
import {
  createReminderRenderer,
  preheaderOf,
  type ReminderEmailModel,
  reminderFirstname,
  renderReminderEmail,
  TEASER_CHARS,
  teaserParagraphs,
  WHATSAPP_OPT_OUT,
  whatsappText,
} from '../src/email';

// Each distinct e-mail is rendered once and each reader's name and signed links are put into it: what a reader
// gets has to be exactly what rendering their own model gives.

const settings: ReminderEmailModel['settings'] = {
  sitetitle: 'Nudge',
  footersitetitle: 'Nudge & Co',
  emaillogo: '',
  headingcolor: '#1f2937',
  paragraphcolor: '#374151',
  buttoncolor: '#2563eb',
  buttonfontcolor: '#ffffff',
  backgroundcolor: '#ffffff',
  recommendationheading: 'You might also like these',
  emailupdateheadline: '',
};

const base = 'https://nudge.example/api/reminder/go';
function readerModel(
  n: number,
  firstname: string,
  over: Partial<ReminderEmailModel> = {},
): ReminderEmailModel {
  return {
    settings,
    firstname: reminderFirstname(firstname),
    heading: 'The fourth breath <is> the one',
    preheader: '',
    paragraphs: ['Breathe in for four & out for six.', 'Notice "it".'],
    fullPost: false,
    locked: false,
    image: null,
    continueUrl: `${base}/c${n}.sig?x=1&y='2'`,
    likeUrl: `${base}/l${n}`,
    upgradeUrl: null,
    recommendations: [
      { heading: 'A reset', url: `${base}/r1-${n}` },
      { heading: 'Slow exhales', url: `${base}/r2-${n}` },
    ],
    checkin: {
      body: 'How rested do you feel?',
      answers: [1, 2, 3, 4, 5].map((answer) => ({ answer, url: `${base}/a${answer}-${n}&q=<${n}>` })),
    },
    unsubscribeUrl: `https://nudge.example/unsubscribe/u${n}`,
    openPixelUrl: `https://nudge.example/api/reminder/open/o${n}`,
    ...over,
  };
}

describe('rendering each distinct reminder e-mail once', () => {
  it('gives every reader the e-mail a direct render of their own model gives, names and links escaped', async () => {
    const renderShape = vi.fn(renderReminderEmail);
    const renderReminder = createReminderRenderer(renderShape);
    const readers = [
      readerModel(1, 'Asha'),
      readerModel(2, `  O'Brien & <Sons>  "Jr"\n`),
      readerModel(3, ''),
      readerModel(4, 'Zoë 😀'),
      readerModel(5, 'Locked', {
        locked: true,
        upgradeUrl: `${base}/up-5`,
        checkin: null,
        recommendations: [],
      }),
      readerModel(6, 'Rest', {
        locked: true,
        upgradeUrl: `${base}/up-6`,
        checkin: null,
        recommendations: [],
      }),
    ];
    for (const m of readers) {
      const direct = await renderReminderEmail(m);
      const cached = await renderReminder(m);
      expect(cached.html).toBe(direct.html);
      expect(cached.text).toBe(direct.text);
      expect(cached.html).toContain(m.openPixelUrl);
    }
    // Shapes: with a name, without a name, locked: three renders for six readers.
    expect(renderShape).toHaveBeenCalledTimes(3);
    // The second reader's name is in the HTML escaped, in the text as written (spaces collapsed).
    const second = await renderReminder(readers[1] as ReminderEmailModel);
    expect(second.html).toContain('O&#x27;Brien &amp; &lt;Sons&gt; &quot;Jr&quot;');
    expect(second.text).toContain(`Hi O'Brien & <Sons> "Jr",`);
  });

  it('renders again when anything but the name and the links differs', async () => {
    const renderShape = vi.fn(renderReminderEmail);
    const renderReminder = createReminderRenderer(renderShape);
    const other = readerModel(2, 'Bo', {
      checkin: { body: 'Another question?', answers: readerModel(2, '').checkin?.answers ?? [] },
    });
    expect((await renderReminder(readerModel(1, 'Al'))).text).toContain('How rested do you feel?');
    const second = await renderReminder(other);
    expect(second.text).toContain('Another question?');
    expect(second).toEqual(await renderReminderEmail(other));
    expect(renderShape).toHaveBeenCalledTimes(2);
  });

  it('writes the HTML in Latin-1 (other characters as references) with an inbox preview of 200 characters', async () => {
    const renderReminder = createReminderRenderer();
    const m = readerModel(7, 'Łukasz 😀', { heading: 'Breathe — slowly', recommendations: [] });
    const { html, text } = await renderReminder(m);
    expect(html).toEqual((await renderReminderEmail(m)).html);
    // One byte per character in V8: nothing above U+00FF; the name, the dash and the heart as references.
    expect(html).not.toMatch(/[\u0100-\u{10ffff}]/u);
    expect(html).toContain('Hi <!-- -->&#321;ukasz &#128512;<!-- -->,');
    expect(html).toContain('Breathe &#8212; slowly</h1>');
    expect(html).toContain('>&#9829; Like</a>');
    // The plain text keeps the characters as they are, and the preview is not in it.
    expect(text).toContain('Hi Łukasz 😀,');
    expect(text).toContain('♥ Like');
    expect(text).not.toContain('\u00a0');
    // The hidden preview: the heading, then no-break space / zero-width non-joiner pairs up to 200 characters.
    const preview = /data-skip-in-text="true">([^<]*)<div>([^<]*)<\/div><\/div>/.exec(html);
    expect(preview?.[1]).toBe('Breathe &#8212; slowly');
    const filler = preview?.[2] ?? '';
    expect(filler).toBe('\u00a0&zwnj;'.repeat(92));
    expect('Breathe — slowly'.length + 2 * 92).toBe(200);
    // React Email's <Preview> wrote about 1,000 filler characters here (3 KB of UTF-8).
    expect(Buffer.byteLength(filler)).toBe(92 * 8);
  });
});

describe('what the reminder e-mail shows of a post', () => {
  const long = 'Sit comfortably and let your shoulders drop as you breathe in slowly. '.repeat(8).trim();
  const body = ['Breathe in for four.', long, 'A last line.'];

  it('a teaser: whole paragraphs while they fit, then the next cut at a word with one ...', () => {
    const teaser = teaserParagraphs(body);
    expect(teaser[0]).toBe('Breathe in for four.');
    expect(teaser).toHaveLength(2);
    expect(teaser[1]?.endsWith('slowly...') || teaser[1]?.endsWith('drop...')).toBe(true);
    expect(teaser.join('').length).toBeLessThanOrEqual(TEASER_CHARS + 3);
    expect(teaserParagraphs(['Short.', 'Also short.'])).toEqual(['Short.', 'Also short.']);
    expect(teaserParagraphs([long], 50)).toHaveLength(1);
  });

  it('the inbox preview line is the opening of the post, and the button says what it does', async () => {
    expect(preheaderOf(body)).toMatch(/^Breathe in for four\. Sit comfortably/);
    expect(preheaderOf(body).length).toBeLessThanOrEqual(143);
    const m = readerModel(1, 'Asha', { preheader: preheaderOf(body), paragraphs: teaserParagraphs(body) });
    const teaser = await renderReminderEmail(m);
    const preview = /data-skip-in-text="true">([^<]*)<div>/.exec(teaser.html)?.[1] ?? '';
    expect(preview.startsWith('Breathe in for four. Sit comfortably')).toBe(true);
    expect(preview).not.toContain('The fourth breath');
    expect(teaser.text).toContain('Continue reading');
    expect(teaser.text).not.toContain('A last line.');
    const whole = await renderReminderEmail({ ...m, paragraphs: body, fullPost: true });
    expect(whole.text).toContain('A last line.');
    expect(whole.text).toContain('Open the post');
    expect(whole.text).not.toContain('Continue reading');
  });
});

describe('the WhatsApp reminder', () => {
  it('has the heading once, the opening words, one link and how to stop the messages', () => {
    const text = whatsappText(
      'Walk after lunch',
      'Afternoon light helps the body...',
      'https://nudge.example/c',
    );
    expect(text).toBe(
      `*Walk after lunch*\nAfternoon light helps the body...\n\nContinue reading: https://nudge.example/c\n\n${WHATSAPP_OPT_OUT}`,
    );
    expect(text.split('Walk after lunch')).toHaveLength(2);
    expect(text.match(/https:/g)).toHaveLength(1);
  });
});
