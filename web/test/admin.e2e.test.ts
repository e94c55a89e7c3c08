import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonCall } from '@nudge/platform/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type E2eApp,
  e2eUnavailable,
  pageWithSession,
  type Session,
  seriousA11yViolations,
  signInThroughOutbox,
  startE2e,
} from './e2e-harness';

const unavailable = e2eUnavailable();
if (unavailable) console.log(`[e2e] admin: skipped: ${unavailable}`);

/** An 8x8 PNG (red), written to a file for the upload inputs. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4oaGBFTEMLQkAgl1GAXRgBQ4AAAAASUVORK5CYII=';
const PNG_FILE = { name: 'red.png', mimeType: 'image/png', buffer: Buffer.from(PNG_BASE64, 'base64') };
const GENERATED_BODY = 'GENERATED BODY: breathe in for four, hold for four, breathe out for six.';
const GENERATED_SUBJECTS = '1. Breathe before you reply\n2. One slow minute';
/** 100 characters: the feed card shows all of it to a reader who may read it, at most half as a locked preview. */
const PREMIUM_BODY = `Premium ladder: lengthen each exhale by one count, then rest; the tail of this body says UNLOCKED.`;

/** A local server answering POST /v1/chat/completions the way OpenAI does (body or subject lines by the prompt). */
async function startFakeOpenAi(): Promise<{ url: string; server: Server; prompts: string[] }> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { messages?: Array<{ content: string }> };
      const prompt = (body.messages ?? []).map((m) => m.content).join('\n');
      prompts.push(prompt);
      const content = prompt.includes('GENERATED BODY') ? GENERATED_SUBJECTS : GENERATED_BODY;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'test-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, server, prompts };
}

describe.runIf(!unavailable)('admin screens, in Chromium', () => {
  let e2e: E2eApp;
  let ai: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let admin: Session;
  let reader: Session;

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);
  const signIn = (email: string, names?: { firstname: string; lastname: string }) =>
    signInThroughOutbox(e2e, email, names);
  const pageAs = (session: Session | null, width = 1280) => pageWithSession(e2e, session, width);

  /** Opens a dashboard section as the admin and waits for its heading. */
  async function section(page: Page, key: string, title: string) {
    await page.goto(`/dashboard?section=${key}`);
    await page.getByRole('heading', { level: 2, name: title }).waitFor();
  }

  /** The serious or critical violations with the elements they were found on (axe is in the page already). */
  async function a11yFailures(page: Page, where: string): Promise<string[]> {
    if ((await seriousA11yViolations(page)).length === 0) return [];
    const details = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(): Promise<{
              violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown[] }> }>;
            }>;
          };
        }
      ).axe;
      const result = await axe.run();
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
    });
    return details.map((d) => `${where}: ${d}`);
  }

  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text, { exact: true }).first().waitFor();

  async function pick(page: Page, label: string, option: string) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    ai = await startFakeOpenAi();
    e2e = await startE2e({
      ADMIN_EMAILS: 'admin@example.com',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: ai.url,
    });
    admin = await signIn('admin@example.com', { firstname: 'Ada', lastname: 'Admin' });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const res = await jsonCall(e2e.app.url, 'GET', '/api/template/alltemplates', undefined, admin.token);
      if (res.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    reader = await signIn('plain@example.com', { firstname: 'Pat', lastname: 'Plain' });
    await api('PUT', '/api/sitesettings/update', { settings: { subscription: true } }, admin.token);
    await api('POST', '/api/topic/add', { topic: 'Sleep', default: true }, admin.token);
  });
  afterAll(async () => {
    await e2e?.close();
    await new Promise((resolve) => ai?.server.close(resolve));
  });

  it('sends a plain user and a visitor away from every admin route', async () => {
    const { context, page } = await pageAs(reader);
    for (const path of ['/dashboard', '/dashboard?section=sitesettings', '/create']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
      expect(await page.getByRole('heading', { name: 'Create a new post' }).count()).toBe(0);
    }
    await context.close();
    const anonymous = await pageAs(null);
    await anonymous.page.goto('/report/0123456789abcdef01234567');
    await anonymous.page.waitForURL((url) => url.pathname === '/');
    await anonymous.context.close();
  });

  it('adds users and finds them by e-mail search', async () => {
    const { context, page } = await pageAs(admin);
    await section(page, 'users', 'Users');
    await page.getByRole('button', { name: 'Add Users' }).click();
    await page.getByLabel('Emails (space separated)').fill('new.one@example.com new.two@example.com');
    // admin.md §9: the time defaults to 08:00 and moves in 15-minute steps.
    expect(await page.getByRole('combobox', { name: 'Notification Time' }).innerText()).toBe('08:00');
    await pick(page, 'Notification Time', '08:15');
    await pick(page, 'Type', 'Cold');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Users Added Successfully');
    await page.getByLabel('Search by email or name').fill('new.two@example.com');
    const grid = page.getByRole('grid', { name: 'Users' });
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await grid.getByText('new.two@example.com').waitFor();
    expect(await grid.getByText('new.one@example.com').count()).toBe(0);
    await page.getByText('1 - 1 of 1').waitFor();
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export All' }).click(),
    ]);
    expect(exported.suggestedFilename()).toBe('users.csv');
    const usersCsv = await readFile(await exported.path(), 'utf8');
    expect(usersCsv).toContain('new.one@example.com');
    expect(usersCsv).toContain('new.two@example.com');
    // Export by range checks its bounds before asking.
    await page.getByLabel('To', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Export Range' }).click();
    await toast(page, 'Please enter To value');
    // Edit: notification status and the active toggle.
    await page.getByRole('button', { name: 'Edit new.two@example.com' }).click();
    await pick(page, 'Notification Status', 'autppause');
    await page.getByRole('dialog').getByLabel('Active').uncheck();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const users = await api(
      'GET',
      '/api/user/getallusers?page=1&limit=10&email=new.two@example.com',
      undefined,
      admin.token,
    );
    expect(users.data[0]).toMatchObject({
      notification_status: 'autppause',
      type: 1,
      notiinfo: { time: '08:15', active: false },
    });
    await context.close();
  });

  it('adds a topic, refusing a blank name', async () => {
    const { context, page } = await pageAs(admin);
    await section(page, 'topics', 'Topics');
    await page.getByRole('button', { name: 'Add Topic' }).click();
    await toast(page, 'Please enter valid topic name');
    await page.getByLabel('Topic Name').fill('Focus');
    await page.getByRole('button', { name: 'Add Topic' }).click();
    await toast(page, 'New Topic Added Successfully');
    await page.getByRole('grid', { name: 'Topics' }).getByText('Focus').waitFor();
    await context.close();
  });

  it('creates a post with an image and two subjects through /create with both AI dialogs, edits it and pauses a subject', async () => {
    const { context, page } = await pageAs(admin);
    await page.goto('/create');
    await page.getByRole('heading', { name: 'Create a new post' }).waitFor();
    await page.getByText('No Subject Present...').waitFor();
    await page.getByLabel('Subject', { exact: true }).fill('Slow down today');
    await page.getByLabel('Subject', { exact: true }).press('Enter');
    await page.getByRole('list', { name: 'All Subjects' }).getByText('Slow down today').waitFor();
    await page.locator('input[type=file]').setInputFiles(PNG_FILE);
    await page.getByRole('img', { name: 'Selected image' }).waitFor();

    // Generate Subjects before any content: refused.
    await page.getByRole('button', { name: 'Generate Subjects' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    await toast(page, 'Please generate content first');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Generate Body' }).click();
    await page.getByLabel('Prompt').fill('x'.repeat(5001));
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    await toast(page, 'Prompt must be 5000 characters or less');
    await page.getByLabel('Prompt').fill('Write about breathing');
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    await toast(page, 'Content generated successfully!');
    expect(await page.getByLabel('Generated Content').inputValue()).toBe(GENERATED_BODY);
    await page.getByRole('button', { name: 'Use Content' }).click();
    expect(await page.getByRole('textbox', { name: 'Body' }).inputValue()).toBe(GENERATED_BODY);
    await page.getByText(`${GENERATED_BODY.length} characters`).waitFor();

    await page.getByRole('button', { name: 'Generate Subjects' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    await toast(page, 'Subject lines generated successfully!');
    await page.getByRole('button', { name: 'Use Selected' }).click();
    await toast(page, 'Please select at least one subject line');
    await page.getByLabel('Breathe before you reply').check();
    await page.getByRole('button', { name: 'Use Selected' }).click();
    await page.getByRole('list', { name: 'All Subjects' }).getByText('Breathe before you reply').waitFor();
    // The site's subjects prompt prefix went to the model with the body.
    expect(ai.prompts.at(-1)).toContain(GENERATED_BODY);

    await page.getByRole('textbox', { name: 'Heading' }).fill('Breathing ladder');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Template Added Successfully');
    await page.waitForURL((url) => url.pathname === '/');

    const all = await api('GET', '/api/template/alltemplates', undefined, admin.token);
    const created = all.data.find((t: { heading: string }) => t.heading === 'Breathing ladder');
    expect(created.subjects.map((s: { title: string }) => s.title)).toEqual([
      'Slow down today',
      'Breathe before you reply',
    ]);
    expect(created.image).toMatch(/^\/api\/media\//);

    await section(page, 'templates', 'Templates');
    await page.getByRole('button', { name: 'Edit Breathing ladder' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Heading' }).fill('Breathing ladder, edited');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Template Edit Successfully');
    await page.getByRole('grid', { name: 'Templates' }).getByText('Breathing ladder, edited').waitFor();

    const analysis = page.getByRole('grid', { name: 'Subject line analysis' });
    await analysis.getByText('Slow down today').waitFor();
    await analysis.getByLabel('Slow down today status').click();
    await analysis.getByText('Pause').waitFor();
    const after = await api('GET', `/api/template/details/${created._id}`, undefined, admin.token);
    expect(after.template.subjects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Slow down today', status: false }),
        expect.objectContaining({ title: 'Breathe before you reply', status: true }),
      ]),
    );
    await context.close();
  });

  it('adds and edits a promotion', async () => {
    const { context, page } = await pageAs(admin);
    await section(page, 'promotions', 'Promotions');
    await page.getByRole('button', { name: 'Add Promotion' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('textbox', { name: 'Heading' }).fill('Winter offer');
    await form.getByRole('textbox', { name: 'Button Text' }).fill('Upgrade');
    await form.getByRole('textbox', { name: 'Button Url' }).fill('/upgrade');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Promotion Added Successfully');
    const grid = page.getByRole('grid', { name: 'Promotions' });
    await grid.getByText('Winter offer').waitFor();
    await grid.getByText('Infinite').waitFor();
    await page.getByRole('button', { name: 'Edit Winter offer' }).click();
    await page.getByRole('dialog').getByLabel('Status: active').uncheck();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Heading' }).fill('Winter offer (paused)');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Promotion Edit Successfully');
    await grid.getByText('Winter offer (paused)').waitFor();
    await grid.getByText('paused', { exact: true }).waitFor();
    await context.close();
  });

  it('shows a transaction after a simulated checkout, filtered by e-mail', async () => {
    const buyer = await signIn('buyer@example.com', { firstname: 'Bo', lastname: 'Buyer' });
    const checkout = await api('POST', '/api/payment/checkout', { token: buyer.token });
    // The simulated checkout answers with a redirect to the result page: not followed here.
    const paid = await fetch(`${e2e.app.url}${checkout.checkoutUrl}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'pay' }),
      redirect: 'manual',
    });
    expect(paid.status).toBeLessThan(400);
    const { context, page } = await pageAs(admin);
    await section(page, 'transactions', 'Transactions');
    await page.getByLabel('Filter by email').fill('buyer@example.com');
    const grid = page.getByRole('grid', { name: 'Transactions' });
    await expect.poll(() => grid.getByText('buyer@example.com').count(), { timeout: 10_000 }).toBe(1);
    await grid.getByText(checkout.subscription.subscriptionId).waitFor();
    await context.close();
  });

  it('changes a colour, a level and the web telemetry retention in Site Settings, and the reader app changes', async () => {
    const { context, page } = await pageAs(admin);
    await section(page, 'sitesettings', 'SiteSettings');
    await page.getByLabel('Button Color', { exact: true }).fill('#aa0000');
    await page.getByRole('button', { name: 'Edit level Intermediate' }).click();
    await page.getByLabel('Level Count').fill('40');
    await page.getByRole('button', { name: 'Update Level' }).click();
    await toast(page, 'A level with this count already exists!');
    await page.getByLabel('Level Count').fill('25');
    await page.getByRole('button', { name: 'Update Level' }).click();
    await page.getByRole('list', { name: 'Levels' }).getByText('Intermediate: 25').waitFor();
    await page.getByLabel('Web Event Retention (days)').fill('90');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Site Settings Updated');
    const saved = (await api('GET', '/api/sitesettings/fetch')).settings;
    expect(saved.buttoncolor).toBe('#aa0000');
    expect(saved.webeventretentiondays).toBe(90);
    expect(saved.levels).toEqual([
      { title: 'Beginner', count: 0 },
      { title: 'Intermediate', count: 25 },
      { title: 'Advanced', count: 40 },
    ]);
    await context.close();
    const visitor = await pageAs(reader, 450);
    await visitor.page.goto('/');
    await expect
      .poll(() =>
        visitor.page.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--color-button').trim(),
        ),
      )
      .toBe('#aa0000');
    await visitor.context.close();
  });

  it('adds and edits a check-in question and downloads CheckIns.csv', async () => {
    const { context, page } = await pageAs(admin);
    await section(page, 'checkin', 'CheckIn');
    await page.getByRole('button', { name: 'Add Check-In Question' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Order').inputValue()).toBe('0');
    await dialog.getByLabel('Body').fill('How calm did you feel today?');
    await dialog.getByLabel('Tag', { exact: true }).fill('calm');
    await dialog.getByLabel('Tag', { exact: true }).press('Enter');
    await dialog.getByLabel('Tag', { exact: true }).fill('calm');
    await dialog.getByLabel('Tag', { exact: true }).press('Enter');
    await dialog.getByLabel('Tag', { exact: true }).fill('mood');
    await dialog.getByRole('button', { name: 'Add Tag' }).click();
    expect(await dialog.locator('.MuiChip-label').allInnerTexts()).toEqual(['calm', 'mood']);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Check-In Question Added Successfully');
    const grid = page.getByRole('grid', { name: 'Check-in questions' });
    await grid.getByText('How calm did you feel today?').waitFor();
    await page.getByRole('button', { name: 'Edit How calm did you feel today?' }).click();
    await pick(page, 'Scale', 'reverse');
    await page.getByRole('dialog').getByLabel('Order').fill('3');
    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Question updated successfully');
    await grid.getByText('reverse').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('CheckIns.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const [head, row] = csv.split('\r\n');
    // With the UTF-8 byte order mark, so a spreadsheet reads accents.
    expect(head).toBe('\uFEFFId,Body,Order,Scale,Tags,Status,Created On');
    expect(row).toContain(',How calm did you feel today?,3,reverse,"calm, mood",Active,');
    await context.close();
  });

  it("sends the token with the feed, so an admin's feed shows a premium card unlocked", async () => {
    const topics = (await api('GET', '/api/topic/getalltopics')).topics;
    await api(
      'POST',
      '/api/template/add',
      {
        heading: 'Premium ladder',
        body: PREMIUM_BODY,
        subjects: [],
        topic: topics[0]._id,
        status: true,
        type: 1,
      },
      admin.token,
    );
    const { context, page } = await pageAs(admin, 450);
    await page.goto('/?page=all');
    const card = page.locator('.post-card', { hasText: 'Premium ladder' });
    await card.waitFor();
    await card.getByText(/UNLOCKED/).waitFor();
    await context.close();
    const plain = await pageAs(reader, 450);
    await plain.page.goto('/?page=all');
    const locked = plain.page.locator('.post-card', { hasText: 'Premium ladder' });
    await locked.waitFor();
    expect(await locked.innerText()).not.toContain('UNLOCKED');
    await plain.context.close();
  });

  /** A month's name as the viewer shows it (English, UTC), from the platform's own calendar. */
  const monthName = (d: Date) => d.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  const QUARTER_NAMES = ['Q1 Jan-Mar', 'Q2 Apr-Jun', 'Q3 Jul-Sep', 'Q4 Oct-Dec'];
  /** The month `back` months before now (UTC). */
  const monthBack = (back: number) => {
    const now = new Date();
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return { year: String(d.getUTCFullYear()), month: monthName(d), date: d };
  };
  /** What the Year row shows over these periods: each year once, in column order. */
  const yearsOf = (years: string[]) => years.filter((y, i) => years[i - 1] !== y);
  /** The texts of a table row's cells after its header cell. */
  const cells = async (page: Page, name: string | RegExp) =>
    (
      await page
        .getByRole('table', { name: 'Report' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
        .innerText()
    )
      .split('\t')
      .slice(1)
      .map((t) => t.trim());
  const headerRows = async (page: Page) =>
    (await page.getByRole('table', { name: 'Report' }).locator('thead tr').allInnerTexts()).map((row) =>
      row.split('\t').map((t) => t.trim()),
    );

  /** How far back the first monitored reader's registration is moved (14 months: 3 monthly pages, 2 years). */
  const MONTHS_BACK = 14;

  it('a report built from real reader activity: added and edited in the Report section, read monthly and quarterly, downloaded and refreshed; access is decided by the server', async () => {
    // Real activity: two readers sign in; Cal reads a post and answers a check-in, Bea gets one and leaves it.
    const cal = await signIn('cal.reader@example.com', { firstname: 'Cal', lastname: 'Reader' });
    const bea = await signIn('bea.reader@example.com', { firstname: 'Bea', lastname: 'Reader' });
    const outsider = await signIn('outsider@example.com', { firstname: 'Oz', lastname: 'Outsider' });
    const topic = (await api('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const post = (
      await api(
        'POST',
        '/api/template/add',
        { heading: 'Report reading', body: 'Read me.', subjects: [], topic, status: true, type: 0 },
        admin.token,
      )
    ).template._id as string;
    const addQuestion = async (body: string, scale: 'normal' | 'reverse', order: number) =>
      (await api('POST', '/api/checkin/add', { body, scale, order, tags: [], status: true }, admin.token))
        .data._id as string;
    const calm = await addQuestion('How calm were you today?', 'normal', 1);
    const tense = await addQuestion('How tense were you today?', 'reverse', 2);
    await api('POST', `/api/template/${post}`, {}, cal.token);
    const calIssued = await e2e.issueCheckin(cal.id, calm);
    await api('POST', `/api/checkin${new URL(calIssued.links[3]?.url ?? '').search}`);
    const beaIssued = await e2e.issueCheckin(bea.id, tense);
    await expect
      .poll(
        async () => {
          const log = await api('POST', '/api/eventlogs/logs?page=1&limit=100', {}, admin.token);
          return log.data.some(
            (r: { userId: string; eventType: string }) =>
              r.userId === cal.id && r.eventType === 'checkin_answer',
          );
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    // The only thing not lived through: Cal registered 14 months ago (an earlier registration event in reporting's
    // log, which its materialized views fold like any other), so the report has history to page through. Every
    // figure of the current month comes from the calls above.
    const registeredAt = monthBack(MONTHS_BACK).date.toISOString().slice(0, 10);
    await e2e.app.analytics?.exec(
      `INSERT INTO events (id, type, stream, user_id, user_email, occurred_at, data)
       SELECT {eventId:String}, 'auth.UserRegistered.v1', {stream:String}, {id:String}, {email:String},
         toDateTime64({at:String}, 3, 'UTC'), {data:String}`,
      {
        eventId: `e2e-earlier-registration-${cal.id}`,
        stream: `user-${cal.id}`,
        id: cal.id,
        email: 'cal.reader@example.com',
        at: `${registeredAt} 12:00:00`,
        data: JSON.stringify({ userId: cal.id, email: 'cal.reader@example.com' }),
      },
    );

    // The Report section: add (logo by URL, ids as comma-separated text with blanks and a duplicate).
    const { context, page } = await pageAs(admin);
    await section(page, 'report', 'Report');
    await page.getByRole('button', { name: 'Add Report' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Report Name' }).fill('Calm readers');
    await dialog.getByRole('textbox', { name: 'Logo Url' }).fill(`${e2e.app.url}/favicon.svg`);
    await dialog
      .getByRole('textbox', { name: 'Monitored Users (comma separated ids)' })
      .fill(` ${cal.id}, ,${bea.id},${cal.id} `);
    await dialog
      .getByRole('textbox', { name: 'Access Users (comma separated ids)' })
      .fill(`${cal.id},${bea.id}`);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Report Added Successfully');
    const grid = page.getByRole('grid', { name: 'Reports' });
    const row = grid.getByRole('row', { name: /Calm readers/ });
    await row.waitFor();
    await row.getByText(`${cal.id}, ${bea.id}`).first().waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    const reportId = (await row.getByRole('link').innerText()).trim();
    expect(reportId).toMatch(/^[0-9a-f]{24}$/);

    // Edit: Bea loses access with her cross, and the logo becomes an upload.
    await page.getByRole('button', { name: 'Edit Calm readers' }).click();
    const access = dialog.getByRole('group', { name: 'Access Users' });
    await access
      .getByRole('button', { name: `Remove ${bea.id}` })
      .locator('.MuiChip-deleteIcon')
      .click();
    expect(await access.getByText(bea.id).count()).toBe(0);
    await dialog.getByLabel('Upload Logo').setInputFiles(PNG_FILE);
    await dialog.getByText('An uploaded logo is set').waitFor();
    await e2e.shot(page, 'admin-report-edit-1280');
    expect(await a11yFailures(page, 'report edit')).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Report updated successfully');
    await grid
      .getByRole('row', { name: /Calm readers/ })
      .getByRole('gridcell', { name: cal.id, exact: true })
      .waitFor();
    const saved = (await api('GET', `/api/report/details/${reportId}`, undefined, admin.token)).report;
    expect(saved.accessUsers).toEqual([cal.id]);
    expect(saved.monitoredUsers).toEqual([cal.id, bea.id]);
    expect(saved.logo).toMatch(/^data:image\/png;base64,/);
    await e2e.shot(page, 'admin-report-section-real-1280');

    // The viewer, monthly: 15 months of periods, 6 a page, newest first.
    const asked: URLSearchParams[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/report/data?')) asked.push(new URL(req.url()).searchParams);
    });
    await page.goto(`/report/${reportId}`);
    await page.getByRole('table', { name: 'Report' }).getByText('Unique People Count').waitFor();
    expect(
      await page
        .getByRole('img', { name: 'Report logo' })
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(8);
    expect(asked.at(-1)?.get('limit')).toBe('6');
    const firstPage = [0, 1, 2, 3, 4, 5].map(monthBack);
    expect(await headerRows(page)).toEqual([
      ['Year', ...yearsOf(firstPage.map((m) => m.year))],
      ['Month', ...firstPage.map((m) => m.month)],
    ]);
    const older = (text: string) => Array.from({ length: 5 }, () => text);
    expect(await cells(page, 'Unique People Count')).toEqual(['2', ...older('1')]);
    expect(await cells(page, 'Active People')).toEqual(['2', ...older('0')]);
    expect(await cells(page, 'Active People %')).toEqual(['100%', ...older('0%')]);
    expect(await cells(page, 'Questions Sent')).toEqual(['2', ...older('0')]);
    expect(await cells(page, 'Questions Answered')).toEqual(['1', ...older('0')]);
    expect(await cells(page, 'Response Rate')).toEqual(['50%', ...older('0%')]);
    expect(await cells(page, /How calm were you today/)).toEqual(['1', ...older('NA')]);
    expect(await cells(page, /How tense were you today/)).toEqual(['0', ...older('NA')]);
    const arrowColour = (name: string) =>
      page
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('img', { name: name.includes('calm') ? 'Higher is better' : 'Lower is better' })
        .evaluate((svg) => getComputedStyle(svg).color);
    const rgb = (c: string) => (c.match(/\d+/g) ?? []).map(Number);
    const [calmR = 0, calmG = 0] = rgb(await arrowColour('How calm were you today'));
    const [tenseR = 0, tenseG = 0] = rgb(await arrowColour('How tense were you today'));
    expect(calmG).toBeGreaterThan(calmR); // green
    expect(tenseR).toBeGreaterThan(tenseG); // red
    await page.getByText('Page 1 of 3').waitFor();
    expect(await page.getByRole('button', { name: 'Latest' }).isDisabled()).toBe(true);
    await e2e.shot(page, 'admin-report-viewer-real-1280');
    expect(await a11yFailures(page, 'report viewer')).toEqual([]);
    await page.getByRole('button', { name: 'Oldest' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    const secondPage = [6, 7, 8, 9, 10, 11].map(monthBack);
    expect((await headerRows(page))[0]).toEqual(['Year', ...yearsOf(secondPage.map((m) => m.year))]);
    await page.getByRole('button', { name: 'Oldest' }).click();
    await page.getByText('Page 3 of 3').waitFor();
    expect(await page.getByRole('button', { name: 'Oldest' }).isDisabled()).toBe(true);
    expect((await headerRows(page))[1]).toEqual(['Month', ...[12, 13, 14].map((b) => monthBack(b).month)]);
    await page.getByRole('button', { name: 'Latest' }).click();
    await page.getByText('Page 2 of 3').waitFor();

    // report_data.csv: the header and the current month's row.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report_data.csv');
    const file = await readFile(await download.path(), 'utf8');
    // With the UTF-8 byte order mark, so a spreadsheet reads accents.
    expect(file.startsWith('\uFEFF')).toBe(true);
    const csv = file.slice(1).trimEnd().split('\r\n');
    const head = csv[0]?.split(',') ?? [];
    expect(head.slice(0, 8)).toEqual([
      'Year',
      'Month',
      'Unique People Count',
      'Active People',
      'Active People %',
      'Questions Sent',
      'Questions Answered',
      'Response Rate',
    ]);
    // One column per question (its body), in the order of the report's questions.
    expect([...head.slice(8)].sort()).toEqual(['How calm were you today?', 'How tense were you today?']);
    const now = monthBack(0);
    const current = Object.fromEntries(head.map((h, i) => [h, csv[1]?.split(',')[i]]));
    expect(current).toEqual({
      Year: now.year,
      Month: now.month,
      'Unique People Count': '2',
      'Active People': '2',
      'Active People %': '100',
      'Questions Sent': '2',
      'Questions Answered': '1',
      'Response Rate': '50',
      'How calm were you today?': '1',
      'How tense were you today?': '0',
    });
    expect(csv).toHaveLength(MONTHS_BACK + 2);

    // Quarterly: page 1 of the quarters, 4 a page.
    await page.getByRole('button', { name: 'Quarterly' }).click();
    const quarterOf = (d: Date) => d.getUTCFullYear() * 4 + Math.floor(d.getUTCMonth() / 3);
    const quarters = quarterOf(now.date) - quarterOf(monthBack(MONTHS_BACK).date) + 1;
    await page.getByText(`Page 1 of ${Math.ceil(quarters / 4)}`).waitFor();
    expect(asked.at(-1)?.get('limit')).toBe('4');
    expect(asked.at(-1)?.get('page')).toBe('1');
    const shownQuarters = Array.from({ length: Math.min(4, quarters) }, (_, i) => {
      const q = quarterOf(now.date) - i;
      return { year: String(Math.floor(q / 4)), label: QUARTER_NAMES[q % 4] };
    });
    expect(await headerRows(page)).toEqual([
      ['Year', ...yearsOf(shownQuarters.map((q) => q.year))],
      ['Quarter', ...shownQuarters.map((q) => q.label)],
    ]);
    expect((await cells(page, 'Unique People Count'))[0]).toBe('2');
    expect((await cells(page, /How calm were you today/))[0]).toBe('1');
    await e2e.shot(page, 'admin-report-viewer-quarterly-1280');

    // Refresh: Bea answers now; the refresh button brings her answer in.
    await api('POST', `/api/checkin${new URL(beaIssued.links[0]?.url ?? '').search}`);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          await page.getByRole('table', { name: 'Report' }).waitFor();
          return (await cells(page, 'Questions Answered'))[0];
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe('2');
    expect((await cells(page, /How tense were you today/))[0]).toBe('1');
    expect((await cells(page, 'Response Rate'))[0]).toBe('100%');
    await page.getByRole('button', { name: 'Monthly' }).click();
    await page.getByText('Page 1 of 3').waitFor();
    expect(asked.at(-1)?.get('limit')).toBe('6');
    await page.setViewportSize({ width: 450, height: 900 });
    await e2e.shot(page, 'admin-report-viewer-real-450');
    expect(await a11yFailures(page, 'report viewer 450')).toEqual([]);
    await context.close();

    // Who may look: Cal (an access user) sees the data; Bea (removed) and an outsider do not.
    const viewAs = async (session: Session, path: string, text: string) => {
      const v = await pageAs(session, 450);
      await v.page.goto(path);
      await v.page.getByText(text, { exact: true }).first().waitFor();
      expect(new URL(v.page.url()).pathname).toBe(path);
      return v;
    };
    const calView = await viewAs(cal, `/report/${reportId}`, 'Unique People Count');
    await calView.context.close();
    for (const who of [bea, outsider]) {
      const denied = await viewAs(who, `/report/${reportId}`, 'No Access to this Report..');
      await denied.page.getByRole('link', { name: 'Back to Home Page' }).click();
      await denied.page.waitForURL((url) => url.pathname === '/');
      await denied.context.close();
    }
    const malformed = await viewAs(
      cal,
      '/report/not-a-report',
      'Invalid report id, Please check report id...',
    );
    await e2e.shot(malformed.page, 'admin-report-invalid-450');
    await malformed.context.close();

    // Hidden: the report is for admins only.
    const again = await pageAs(admin);
    await section(again.page, 'report', 'Report');
    await again.page.getByRole('button', { name: 'Edit Calm readers' }).click();
    await again.page.getByRole('dialog').getByLabel('Status: Active').uncheck();
    await again.page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await toast(again.page, 'Report updated successfully');
    await again.page
      .getByRole('grid', { name: 'Reports' })
      .getByRole('row', { name: /Calm readers/ })
      .getByText('Hidden', { exact: true })
      .waitFor();
    await again.page.goto(`/report/${reportId}`);
    await again.page.getByText('Unique People Count').waitFor();
    await again.context.close();
    const hidden = await viewAs(cal, `/report/${reportId}`, 'No Access to this Report..');
    await hidden.context.close();
  });

  it("Event Logs shows a reader's events and downloads all of them as EventLogs.csv, with progress for a large log", async () => {
    const dee = await signIn('dee.reader@example.com', { firstname: 'Dee', lastname: 'Reader' });
    await api('POST', '/api/eventlogs', {
      events: [{ eventType: 'page_visit', eventValue: '/eventlogs-check' }],
      token: dee.token,
    });
    await expect
      .poll(
        async () => {
          const log = await api('POST', '/api/eventlogs/logs?page=1&limit=10', {}, admin.token);
          return log.data.some((r: { userId: string }) => r.userId === dee.id);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    const { context, page } = await pageAs(admin);
    await section(page, 'eventlogs', 'Event Logs');
    const grid = page.getByRole('grid', { name: 'Event logs' });
    const visit = grid.getByRole('row', { name: /\/eventlogs-check/ });
    await visit.waitFor();
    expect((await visit.getByRole('gridcell').allInnerTexts()).map((t) => t.trim()).filter(Boolean)).toEqual([
      dee.id,
      'page_visit',
      '/eventlogs-check',
      new Date().toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    ]);
    // admin.md §2's default columns, and the time the log is ordered by.
    expect(
      (await grid.getByRole('columnheader').allInnerTexts()).map((t) => t.trim()).filter(Boolean),
    ).toEqual(['User Id', 'Event Type', 'Event Value', 'Created On']);
    await e2e.shot(page, 'admin-eventlogs-real-1280');
    expect(await a11yFailures(page, 'event logs')).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('EventLogs.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Id,User Id,User Email,Event Type,Event Value,Created On');
    const dees = lines.filter((l) => l.includes(`,${dee.id},dee.reader@example.com,`));
    expect(dees.some((l) => l.includes(',page_visit,/eventlogs-check,'))).toBe(true);
    expect(dees.some((l) => l.includes(',sign_in,'))).toBe(true);

    // A large log (3,000 more page visits) over a slow line: the progress shows while it streams.
    for (let batch = 0; batch < 30; batch += 1)
      await api('POST', '/api/eventlogs', {
        events: Array.from({ length: 100 }, (_, i) => ({
          eventType: 'page_visit',
          eventValue: `/bulk/${batch * 100 + i}`,
        })),
        token: dee.token,
      });
    await expect
      .poll(async () => (await api('POST', '/api/eventlogs/logs?page=1&limit=10', {}, admin.token)).total, {
        timeout: 15_000,
        interval: 250,
      })
      .toBeGreaterThanOrEqual(3000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 50,
      downloadThroughput: 40 * 1024,
      uploadThroughput: 40 * 1024,
    });
    const [big] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      (async () => {
        await page.getByRole('button', { name: 'Download all' }).click();
        const status = page.getByRole('status').filter({ hasText: /Downloading… [1-9]\d* KB/ });
        await status.getByRole('progressbar', { name: 'Download progress' }).waitFor();
        expect(await page.getByRole('button', { name: 'Download all' }).isDisabled()).toBe(true);
        await e2e.shot(page, 'admin-eventlogs-progress-1280');
      })(),
    ]);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const bigLines = (await readFile(await big.path(), 'utf8')).trim().split(/\r?\n/);
    expect(bigLines.filter((l) => l.includes(',page_visit,/bulk/')).length).toBe(3000);
    await page.getByRole('status').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 450, height: 900 });
    await e2e.shot(page, 'admin-eventlogs-real-450');
    await context.close();
  });

  it('every admin screen at 1280 px and 450 px: screenshots and no serious or critical axe violation', async () => {
    const screens: Array<[string, string]> = [
      ['users', 'Users'],
      ['topics', 'Topics'],
      ['templates', 'Templates'],
      ['promotions', 'Promotions'],
      ['transactions', 'Transactions'],
      ['sitesettings', 'SiteSettings'],
      ['checkin', 'CheckIn'],
      ['report', 'Report'],
      ['eventlogs', 'Event Logs'],
    ];
    const failures: string[] = [];
    for (const width of [1280, 450]) {
      const { context, page } = await pageAs(admin, width);
      for (const [key, title] of screens) {
        await section(page, key, title);
        await page.waitForTimeout(400);
        await e2e.shot(page, `admin-${key}-${width}`);
        failures.push(...(await a11yFailures(page, `${key}@${width}`)));
      }
      if (width === 450) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page.getByRole('navigation', { name: 'Admin sections' }).getByText('Event Logs').waitFor();
        await page.waitForTimeout(400); // the drawer slides in
        await e2e.shot(page, 'admin-drawer-450');
        await page.keyboard.press('Escape');
      }
      await page.goto('/create');
      await page.getByRole('heading', { name: 'Create a new post' }).waitFor();
      await e2e.shot(page, `admin-create-${width}`);
      failures.push(...(await a11yFailures(page, `create@${width}`)));
      await page.goto('/report/0123456789abcdef01234567');
      await page.getByText('Invalid report id, Please check report id...').waitFor();
      await e2e.shot(page, `admin-report-viewer-${width}`);
      failures.push(...(await a11yFailures(page, `report@${width}`)));
      await context.close();
    }
    if (failures.length) console.log(failures.join('\n'));
    expect(failures).toEqual([]);
  });
});
