import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../store';
import { captureMail, captureWhatsApp, createDevOutbox } from './outbox';

describe('dev outbox', () => {
  it('captures e-mail and WhatsApp messages and lists them newest first, even within one millisecond', async () => {
    const store = createEmbeddedStore({});
    const fixed = new Date('2026-01-01T00:00:00Z');
    const outbox = createDevOutbox(store, () => fixed);
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
    await store.close();
  });

  it('stores a message once per idempotency key (a re-delivery after a crash), keeps its headers, pages newest first', async () => {
    const store = createEmbeddedStore({});
    const outbox = createDevOutbox(store);
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
    await store.close();
  });
});
