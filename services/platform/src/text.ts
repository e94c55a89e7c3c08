import { isUtf8 } from 'node:buffer';

/**
 * Valid Unicode text, the rule for every string that reaches storage. A JavaScript string can hold a lone UTF-16
 * surrogate (JSON's "\ud800" escape makes one); no UTF-8 encoder can write it, so every store mangles it its own way
 * (MongoDB and Kafka turn it into U+FFFD, ClickHouse refuses the row or stores invalid UTF-8). Such text is refused
 * where it enters (the http kit) and set aside where it turns up anyway (the bus consumers, reporting's inserts).
 */

/**
 * The path ('events.0.eventValue', 'metadata') of the first string or object key in `value` that is not well-formed
 * Unicode, '' for the value itself, or undefined when all of its text is well-formed. Binary data (Buffers) is not
 * text and is skipped. Walks without recursion, so a deeply nested value cannot overflow the stack.
 */
export function illFormedTextAt(value: unknown): string | undefined {
  type Frame = { value: unknown; key: string | number | undefined; parent: Frame | undefined };
  const pathOf = (frame: Frame | undefined, last?: string): string => {
    const parts: string[] = last === undefined ? [] : [last];
    for (let f = frame; f && f.key !== undefined; f = f.parent) parts.unshift(String(f.key));
    return parts.join('.');
  };
  const stack: Frame[] = [{ value, key: undefined, parent: undefined }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const v = frame.value;
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return pathOf(frame);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: frame });
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const key of Object.keys(v)) {
        if (!key.isWellFormed()) return pathOf(frame, key.toWellFormed());
        stack.push({ value: (v as Record<string, unknown>)[key], key, parent: frame });
      }
    }
  }
  return undefined;
}

/** What a person is told about text that is not valid Unicode at `path` (illFormedTextAt). */
export const illFormedTextMessage = (path: string, where = 'the request'): string =>
  `${path ? `${path} in ${where}` : where} is not valid Unicode text (it holds a lone surrogate)`;

const PERCENT_ESCAPE = /^%[0-9A-Fa-f]{2}/;
/** A byte outside ASCII, raw or percent-escaped: only such a target can fail to be UTF-8. */
const NON_ASCII = /%[89A-Fa-f][0-9A-Fa-f]|[\u0080-\uffff]/;

/**
 * Whether a request target (path and query, as it came on the request line) spells UTF-8: its percent-escapes and
 * raw bytes, decoded to bytes, are valid UTF-8. Node hands the target over as Latin-1, one character a byte. A
 * target whose escapes are not UTF-8 (`%FF`, an encoded surrogate `%ED%A0%80`, an overlong `%C0%AF`) would be
 * decoded by the query parser into U+FFFD and by the router into an error; it is refused instead.
 */
export function isUtf8Target(target: string): boolean {
  if (!NON_ASCII.test(target)) return true;
  const bytes = Buffer.allocUnsafe(target.length);
  let n = 0;
  for (let i = 0; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === 0x25 && PERCENT_ESCAPE.test(target.slice(i, i + 3))) {
      bytes[n++] = Number.parseInt(target.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      bytes[n++] = c & 0xff;
    }
  }
  return isUtf8(bytes.subarray(0, n));
}
