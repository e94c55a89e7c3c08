import type { BusMessage } from '../events/types';

/**
 * The one wire shape of a bus message, enforced by every adapter: key and value are strings, headers map
 * strings to strings. The in-process bus refuses anything Kafka would not carry the same way.
 */
export function assertWireMessage(message: BusMessage): void {
  if (!message || typeof message !== 'object') throw new TypeError('bus message must be an object');
  if (typeof message.topic !== 'string' || message.topic === '')
    throw new TypeError('bus message: topic must be a non-empty string');
  if (typeof message.key !== 'string')
    throw new TypeError(`bus message on ${message.topic}: key must be a string`);
  if (typeof message.value !== 'string')
    throw new TypeError(`bus message on ${message.topic}: value must be a string`);
  const headers = message.headers as unknown;
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    throw new TypeError(`bus message on ${message.topic}: headers must be an object of strings`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') {
      throw new TypeError(
        `bus message on ${message.topic}: header ${name} must be a string, got ${typeof value}`,
      );
    }
  }
}

/** Kafka header values arrive as Buffers (or arrays of them); the port speaks strings. */
export function headersToStrings(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined || value === null) continue;
    out[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return out;
}
