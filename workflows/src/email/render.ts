import { render, toPlainText } from '@react-email/render';
import { createElement } from 'react';
import type { ReminderEmailModel } from './model';
import { ReminderEmail } from './ReminderEmail';

/** The HTML and plain-text parts of one reminder e-mail. */
export async function renderReminderEmail(m: ReminderEmailModel): Promise<{ html: string; text: string }> {
  const html = await render(createElement(ReminderEmail, { m }));
  return { html, text: toPlainText(html) };
}

/** The WhatsApp reminder: subject line, heading, continue-reading link. */
export function whatsappText(subject: string, heading: string, continueUrl: string): string {
  return `${subject}\n\n*${heading}*\n\nContinue reading: ${continueUrl}`;
}
