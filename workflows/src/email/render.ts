import { randomBytes } from 'node:crypto';
import { renderEmail } from '@nudge/email';
import { createElement } from 'react';
import type { ReminderEmailModel } from './model';
import { ReminderEmail } from './ReminderEmail';

/**
 * The HTML and plain-text parts of one reminder e-mail. In the HTML, every character outside Latin-1 (the like
 * link's heart, a post's dashes or emoji, a name) is written as a numeric character reference: the HTML is then
 * ASCII and Latin-1 only, one byte per character in V8 (a single other character makes V8 keep the whole string,
 * and every string built from it, at two bytes per character). Browsers and mail clients show the same text. The
 * reminder's HTML has no <style> or <script> element, where a reference would not be decoded.
 */
export async function renderReminderEmail(m: ReminderEmailModel): Promise<{ html: string; text: string }> {
  const { html, text } = await renderEmail(createElement(ReminderEmail, { m }));
  return { html: html.replace(NOT_LATIN1, characterReference), text };
}

const NOT_LATIN1 = /[\u0100-\u{10ffff}]/gu;
const characterReference = (c: string) => `&#${c.codePointAt(0)};`;

/**
 * React's escaping of text and attribute values (react-dom-server escapeTextForBrowser), and characters outside
 * Latin-1 as renderReminderEmail writes them.
 */
const HTML_ESCAPES: Record<string, string> = {
  '"': '&quot;',
  '&': '&amp;',
  "'": '&#x27;',
  '<': '&lt;',
  '>': '&gt;',
};
const escapeHtml = (value: string) =>
  value.replace(/["&'<>]|[\u0100-\u{10ffff}]/gu, (c) => HTML_ESCAPES[c] ?? characterReference(c));

/** Distinct e-mail shapes kept rendered (a slot has a few: post x gating x check-in question x settings). */
const SHAPES_KEPT = 256;

/**
 * Renders each distinct e-mail once. A reader's e-mail differs from another reader's of the same post only in
 * its first name and its signed links: those become placeholder tokens, the e-mail with tokens is rendered once
 * per shape (everything else in the model), and each reader's values are put in its HTML (escaped as React
 * escapes them) and its text (as they are). The result is the same as renderReminderEmail's for that reader
 * (test/email-render.unit.test.ts); the first name is normalised by reminderFirstname for both.
 */
export function createReminderRenderer(renderShape = renderReminderEmail) {
  // A random part: no post or name can contain a token by accident.
  const nonce = randomBytes(6).toString('hex');
  const tokenPattern = new RegExp(`rmd${nonce}t(\\d+)t`, 'g');
  /** A shape being rendered (its promise), then rendered (the pieces themselves: no promise, no await per e-mail). */
  const shapes = new Map<string, Promise<CompiledShape> | CompiledShape>();
  /**
   * The key of a shape names its settings and paragraphs by a number per distinct JSON: the JSON of a batch's settings
   * (about 1.7 KB) is written once per settings object, not once per e-mail. Objects are taken as unchanged once seen
   * (a batch's settings and a post's paragraphs are not modified). Both maps start again, with the shapes, when full:
   * before a key is made, never between its two ids (an id from before a restart would name another part after it).
   */
  let partIds = new Map<string, number>();
  let partOf = new WeakMap<object, number>();
  const idOf = (part: object): number => {
    let id = partOf.get(part);
    if (id === undefined) {
      const json = JSON.stringify(part);
      id = partIds.get(json);
      if (id === undefined) {
        id = partIds.size;
        partIds.set(json, id);
      }
      partOf.set(part, id);
    }
    return id;
  };
  /** A rendered shape cut at its tokens once: each reader's e-mail is then one join of the pieces and values. */
  const compile = async (rendered: Promise<{ html: string; text: string }>): Promise<CompiledShape> => {
    const { html, text } = await rendered;
    return { html: html.split(tokenPattern), text: text.split(tokenPattern) };
  };

  /**
   * The reader's e-mail: at once when its shape is rendered already (every e-mail of a slot but the first few),
   * else a promise of it.
   */
  return function renderReminder(m: ReminderEmailModel): Rendered | Promise<Rendered> {
    const values: string[] = [];
    const token = (value: string) => {
      values.push(value);
      return `rmd${nonce}t${values.length - 1}t`;
    };
    // An empty value changes the shape (no greeting, no upgrade line): kept as it is.
    const maybe = (value: string) => (value ? token(value) : value);
    const shape: ReminderEmailModel = {
      ...m,
      firstname: maybe(m.firstname),
      continueUrl: token(m.continueUrl),
      likeUrl: token(m.likeUrl),
      upgradeUrl: m.upgradeUrl ? token(m.upgradeUrl) : m.upgradeUrl,
      recommendations: m.recommendations.map((r) => ({ heading: r.heading, url: token(r.url) })),
      checkin: m.checkin
        ? { body: m.checkin.body, answers: m.checkin.answers.map((a) => ({ ...a, url: token(a.url) })) }
        : null,
      unsubscribeUrl: token(m.unsubscribeUrl),
      openPixelUrl: token(m.openPixelUrl),
    };
    if (partIds.size >= 4 * SHAPES_KEPT) {
      partIds = new Map();
      partOf = new WeakMap();
      shapes.clear();
    }
    // Tokens are numbered in the order the shape's fields are visited: the same shape gives the same key.
    const key = `${idOf(m.settings)} ${idOf(m.paragraphs)} ${JSON.stringify({ ...shape, settings: 0, paragraphs: 0 })}`;
    let compiled = shapes.get(key);
    if (!compiled) {
      const rendering = compile(renderShape(shape));
      rendering.then(
        // In its place in the map (the eviction order stays), unless it was evicted meanwhile.
        (done) => shapes.get(key) === rendering && shapes.set(key, done),
        () => shapes.get(key) === rendering && shapes.delete(key),
      );
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value as string);
      shapes.set(key, rendering);
      compiled = rendering;
    }
    if (compiled instanceof Promise) return compiled.then((done) => filled(done, values));
    return filled(compiled, values);
  };
}

type Rendered = { html: string; text: string };

/** A reader's e-mail: the shape's pieces with the reader's values. */
const filled = ({ html, text }: CompiledShape, values: string[]): Rendered => ({
  html: fill(html, values, escapeHtml),
  text: fill(text, values, (v) => v),
});

/** A rendered shape split at its tokens: text, token number, text, ... (String.split with a capturing group). */
type CompiledShape = { html: string[]; text: string[] };

/** The pieces with each token number replaced by the reader's value. */
function fill(pieces: string[], values: string[], encode: (value: string) => string): string {
  let out = pieces[0] as string;
  for (let i = 1; i < pieces.length; i += 2)
    out += encode(values[Number(pieces[i])] as string) + (pieces[i + 1] as string);
  return out;
}

/** The first name as the e-mail shows it: HTML-to-text collapses white space, so the model holds it collapsed. */
export const reminderFirstname = (name: string) => name.replace(/\s+/g, ' ').trim();

/** How a reader stops WhatsApp reminders (there is no reply keyword: the switch is in their settings). */
export const WHATSAPP_OPT_OUT = 'To stop these messages, turn WhatsApp reminders off in your settings.';

/**
 * The WhatsApp reminder, short as a chat message is: the heading once (bold), the post's opening words, one link,
 * and how to stop them.
 */
export function whatsappText(heading: string, opening: string, continueUrl: string): string {
  const lines = [`*${heading.trim()}*`];
  if (opening) lines.push(opening);
  return `${lines.join('\n')}\n\nContinue reading: ${continueUrl}\n\n${WHATSAPP_OPT_OUT}`;
}
