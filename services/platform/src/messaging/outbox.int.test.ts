import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore, DATA_FORMAT, DataFormatError } from '../store';
import { openFileOutbox } from './file-outbox';
import { captureMail, captureWhatsApp, createDevOutbox } from './outbox';
import type { DevOutbox } from './types';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-outbox-'));
  dirs.push(dir);
  return dir;
};

/** Both adapters: the document store's collection (MongoDB) and the files (embedded topology). */
const adapters: Array<
  [string, (clock?: () => Date) => Promise<{ outbox: DevOutbox; close(): Promise<void> }>]
> = [
  [
    'document store',
    async (clock) => {
      const store = createEmbeddedStore({});
      return { outbox: createDevOutbox(store, clock), close: () => store.close() };
    },
  ],
  [
    'files',
    async (clock) => {
      const outbox = await openFileOutbox(await tempDir(), clock);
      return { outbox, close: () => outbox.close() };
    },
  ],
];

describe.each(adapters)('dev outbox (%s)', (_name, openOutbox) => {
  it('captures e-mail and WhatsApp messages and lists them newest first, even within one millisecond', async () => {
    const fixed = new Date('2026-01-01T00:00:00Z');
    const { outbox, close } = await openOutbox(() => fixed);
    await captureMail(outbox).send({
      to: 'a@example.com',
      subject: 'Code',
      text: 'first',
      html: '<p>first</p>',
    });
    await captureWhatsApp(outbox).send({ to: '9876543210', text: 'second' });
    await captureMail(outbox).send({ to: 'b@example.com', subject: 'Code', text: 'third' });
    const listed = await outbox.list();
    expect(listed.map((m) => m.text)).toEqual(['third', 'second', 'first']);
    expect(listed[2]).toEqual({
      channel: 'email',
      to: 'a@example.com',
      subject: 'Code',
      text: 'first',
      html: '<p>first</p>',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(listed[1]).toEqual({
      channel: 'whatsapp',
      to: '9876543210',
      text: 'second',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await close();
  });

  it('stores a message once per idempotency key (a re-delivery after a crash), keeps its headers, pages newest first', async () => {
    const { outbox, close } = await openOutbox();
    const mail = captureMail(outbox);
    const headers = { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    for (let i = 0; i < 3; i++)
      await mail.send({ to: 'r@example.com', subject: 'Daily', text: 'once', headers, idempotencyKey: 'k1' });
    for (let n = 1; n <= 4; n++) await mail.send({ to: `p${n}@example.com`, subject: 'Page', text: `p${n}` });
    const all = await outbox.list();
    expect(all.filter((m) => m.text === 'once')).toHaveLength(1);
    expect(all.find((m) => m.text === 'once')).toMatchObject({ headers, idempotencyKey: 'k1' });
    expect((await outbox.list(2, 0)).map((m) => m.text)).toEqual(['p4', 'p3']);
    expect((await outbox.list(2, 2)).map((m) => m.text)).toEqual(['p2', 'p1']);
    expect((await outbox.list(2, 4)).map((m) => m.text)).toEqual(['once']);
    await close();
  });
});

describe('dev outbox on files', () => {
  it('erases every message to a deleted reader: nothing of them is left in the files', async () => {
    const dir = await tempDir();
    const outbox = await openFileOutbox(dir);
    await captureMail(outbox).send({
      to: 'Gone.Reader@example.com',
      subject: 'Hi Gwendolyn',
      text: 'Code 123456',
      html: '<p>Gwendolyn</p>',
    });
    await captureMail(outbox).send({ to: 'stays@example.com', subject: 'Hi', text: 'kept' });
    await captureWhatsApp(outbox).send({ to: '+919812345670', text: 'Code 654321' });
    expect(await outbox.forget?.('gone.reader@example.com')).toBe(1);
    expect(await outbox.forget?.('+919812345670')).toBe(1);
    const listed = await outbox.list();
    expect(listed.map((m) => m.to)).toEqual(['', 'stays@example.com', '']);
    await outbox.close();
    const bytes = (await readFile(join(dir, 'messages.dat'))).toString('utf8');
    for (const gone of ['Gone.Reader', 'Gwendolyn', '123456', '9812345670'])
      expect(bytes).not.toContain(gone);
    expect(bytes).toContain('kept');
  });

  it('keeps messages and the once-per-key rule across a restart; a torn index record is ignored', async () => {
    const dir = await tempDir();
    const first = await openFileOutbox(dir);
    const mail = captureMail(first);
    await mail.send({ to: 'a@example.com', subject: 'A', text: 'a', idempotencyKey: 'ka' });
    await mail.send({ to: 'b@example.com', subject: 'B', text: 'b' });
    await first.close();
    // A crash in the middle of writing a record: part of one is in the index.
    const index = join(dir, 'index.bin');
    await truncate(index, (await stat(index)).size + 10);
    const second = await openFileOutbox(dir);
    await captureMail(second).send({
      to: 'a@example.com',
      subject: 'A',
      text: 'again',
      idempotencyKey: 'ka',
    });
    await captureMail(second).send({ to: 'c@example.com', subject: 'C', text: 'c', idempotencyKey: 'kc' });
    expect((await second.list()).map((m) => m.text)).toEqual(['c', 'b', 'a']);
    expect(second.count()).toBe(3);
    await second.close();
  });

  it('keeps text and HTML exactly (new lines, quotes, non-ASCII)', async () => {
    const dir = await tempDir();
    const outbox = await openFileOutbox(dir, () => new Date('2026-01-02T00:00:00Z'));
    const mail = {
      to: 'new@example.com',
      subject: 'Zoë',
      text: 'Hi Zoë 😀,\n\n"quoted"\n',
      html: '<p class="x">Zoë 😀\n{"parts":[1]}</p>\n',
      headers: { 'List-Unsubscribe': '<https://nudge.example/u>' },
      idempotencyKey: 'k-new',
    };
    await captureMail(outbox).send(mail);
    await captureWhatsApp(outbox).send({ to: '919876543210', text: 'no html\n' });
    expect(await outbox.list()).toEqual([
      { channel: 'whatsapp', to: '919876543210', text: 'no html\n', createdAt: '2026-01-02T00:00:00.000Z' },
      { channel: 'email', ...mail, createdAt: '2026-01-02T00:00:00.000Z' },
    ]);
    await outbox.close();
  });

  it('records its data format and refuses a folder written in another format, or with messages and none', async () => {
    const dir = await tempDir();
    const outbox = await openFileOutbox(dir);
    await captureMail(outbox).send({ to: 'a@example.com', subject: 'A', text: 'a' });
    await outbox.close();
    expect(await readFile(join(dir, 'data-format'), 'utf8')).toBe(`${DATA_FORMAT}\n`);

    await writeFile(join(dir, 'data-format'), `${DATA_FORMAT + 1}\n`);
    const other = openFileOutbox(dir);
    await expect(other).rejects.toBeInstanceOf(DataFormatError);
    await expect(other).rejects.toThrow(
      `The data folder ${dir} was written in data format ${DATA_FORMAT + 1}`,
    );
    await rm(join(dir, 'data-format'));
    await expect(openFileOutbox(dir)).rejects.toThrow('with no data format recorded');
    // Refused without a change: with its format back, the folder opens with its message.
    await writeFile(join(dir, 'data-format'), `${DATA_FORMAT}\n`);
    const again = await openFileOutbox(dir);
    expect((await again.list()).map((m) => m.to)).toEqual(['a@example.com']);
    await again.close();
  });

  it('pages 100,000 messages newest first, reading only the page from disk', async () => {
    const outbox = await openFileOutbox(await tempDir());
    const mail = captureMail(outbox);
    const headers = { 'List-Unsubscribe': '<https://nudge.example/u>' };
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 100_000; i++)
      sends.push(
        mail.send({
          to: `r${i}@example.com`,
          subject: 'Daily',
          text: `body ${i}`,
          headers,
          idempotencyKey: `k${i}`,
        }),
      );
    await Promise.all(sends);
    expect(outbox.count()).toBe(100_000);
    // Every key is still known after the key table grew many times: re-deliveries are stored once.
    for (const i of [0, 5, 4_095, 65_537, 99_999])
      await mail.send({ to: `r${i}@example.com`, subject: 'Daily', text: 'again', idempotencyKey: `k${i}` });
    expect(outbox.count()).toBe(100_000);
    const started = performance.now();
    const newest = await outbox.list(100, 0);
    const last = await outbox.list(100, 99_950);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(newest.map((m) => m.to).slice(0, 2)).toEqual(['r99999@example.com', 'r99998@example.com']);
    expect(newest[0]).toMatchObject({ headers, text: 'body 99999', idempotencyKey: 'k99999' });
    expect(last.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `body ${49 - i}`));
    expect(await outbox.list(100, 100_000)).toEqual([]);
    await outbox.close();
  }, 60_000);
});
