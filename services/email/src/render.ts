import { render, toPlainText } from '@react-email/render';
import type { ReactElement } from 'react';

/** The HTML part of an e-mail rendered by React Email, and its plain-text part read from that HTML. */
export async function renderEmail(element: ReactElement): Promise<{ html: string; text: string }> {
  const html = await render(element);
  return { html, text: toPlainText(html) };
}
