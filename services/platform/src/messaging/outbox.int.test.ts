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
});
