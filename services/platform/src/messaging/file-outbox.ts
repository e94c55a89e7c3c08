import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { DevOutbox, OutboxMessage } from './types';

/**
 * The embedded topology's dev outbox on disk, for any number of messages. Two append-only files in `dir`:
 * - `messages.jsonl`: each message as a JSON line of its fields and headers, then its text and HTML parts as they
 *   are, their byte lengths in the line's `parts` (a JSON-escaped 6 KB e-mail cost more than a quarter of its whole
 *   send); an entry of an older version is the message as one JSON line, text and HTML included, and still read;
 * - `index.bin`: one fixed-size record per message, in arrival order: where its line starts, how long it is, and
 *   the hash of its idempotency key (zero without one).
 * Only the key hashes stay in memory (for the once-per-key rule); a page is read from the index's end (newest
 * first) and its bodies from the message file, on demand. Appends are grouped: one write to each file for all
 * the messages that arrived meanwhile, and a message's record is written after its line, so a crash between
 * leaves an unindexed line (never listed) and the re-delivery of that key stores it again.
 */
export async function openFileOutbox(dir: string, clock: () => Date = () => new Date()): Promise<FileOutbox> {
  await mkdir(dir, { recursive: true });
  // Read-write, not append mode: positional writes (Linux ignores the position in append mode).
  const openRw = async (name: string) => {
    await (await open(join(dir, name), 'a')).close();
    return open(join(dir, name), 'r+');
  };
  const data = await openRw('messages.jsonl');
  const index = await openRw('index.bin');
  let dataSize = (await data.stat()).size;
  let records = Math.floor((await index.stat()).size / RECORD);
  const keys = new Set<string>();
  // The key hashes of the messages stored so far (a torn last record, from a crash mid-write, is ignored).
  const whole = Buffer.alloc(records * RECORD);
  if (records > 0) await index.read(whole, 0, whole.length, 0);
  for (let i = 0; i < records; i++) {
    const hash = whole.subarray(i * RECORD + 12, (i + 1) * RECORD);
    if (hash.some((b) => b !== 0)) keys.add(hash.toString('hex'));
  }
  let indexSize = records * RECORD;

  let pending: Array<{ line: Buffer; hash: Buffer; done(err?: unknown): void }> = [];
  let writing: Promise<void> | null = null;
  let closed = false;

  async function writePending(): Promise<void> {
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        try {
          const recordBuf = Buffer.alloc(batch.length * RECORD);
          let at = dataSize;
          batch.forEach((m, i) => {
            recordBuf.writeBigUInt64BE(BigInt(at), i * RECORD);
            recordBuf.writeUInt32BE(m.line.length, i * RECORD + 8);
            m.hash.copy(recordBuf, i * RECORD + 12);
            at += m.line.length;
          });
          const lines = Buffer.concat(batch.map((m) => m.line));
          await data.write(lines, 0, lines.length, dataSize);
          await index.write(recordBuf, 0, recordBuf.length, indexSize);
          dataSize += lines.length;
          indexSize += recordBuf.length;
          records += batch.length;
          for (const m of batch) m.done();
        } catch (err) {
          for (const m of batch) m.done(err);
        }
      }
    } finally {
      writing = null;
    }
  }

  async function readPage(limit: number, skip: number): Promise<OutboxMessage[]> {
    const newest = records - 1 - skip;
    const oldest = Math.max(0, newest - limit + 1);
    if (newest < 0 || limit <= 0) return [];
    const recs = Buffer.alloc((newest - oldest + 1) * RECORD);
    await index.read(recs, 0, recs.length, oldest * RECORD);
    const out: OutboxMessage[] = [];
    for (let i = newest - oldest; i >= 0; i--) {
      const start = Number(recs.readBigUInt64BE(i * RECORD));
      const length = recs.readUInt32BE(i * RECORD + 8);
      const entry = Buffer.alloc(length);
      await data.read(entry, 0, length, start);
      out.push(parseEntry(entry));
    }
    return out;
  }

  return {
    async record(message) {
      if (closed) throw new Error('the dev outbox is closed');
      const hash = message.idempotencyKey ? keyHash(message.idempotencyKey) : ZERO;
      const hex = hash.toString('hex');
      // A re-delivery of a message already captured (same idempotency key): stored once.
      if (hash !== ZERO && keys.has(hex)) return;
      if (hash !== ZERO) keys.add(hex);
      const line = entryOf(message, clock().toISOString());
      await new Promise<void>((resolve, reject) => {
        pending.push({
          line,
          hash,
          done: (err) => {
            if (err === undefined) return resolve();
            if (hash !== ZERO) keys.delete(hex);
            reject(err);
          },
        });
        writing ??= writePending();
      });
    },
    // Newest first; `skip` for paging. Each page reads its records and lines from disk.
    list: (limit = 100, skip = 0) => readPage(limit, skip),
    count: () => records,
    async close() {
      closed = true;
      await writing;
      await data.close();
      await index.close();
    },
  };
}

export interface FileOutbox extends DevOutbox {
  /** Messages stored. */
  count(): number;
  close(): Promise<void>;
}

/**
 * One message's entry: `<JSON of the other fields, with parts: [text bytes, HTML bytes]>\n<text><HTML>\n` (JSON never
 * holds a raw newline, so the first one ends the line).
 */
function entryOf(message: Omit<OutboxMessage, 'createdAt'>, createdAt: string): Buffer {
  const { text, html = '', ...fields } = message;
  const textBytes = Buffer.byteLength(text);
  const htmlBytes = Buffer.byteLength(html);
  const head = JSON.stringify({
    ...fields,
    createdAt,
    parts: message.html === undefined ? [textBytes] : [textBytes, htmlBytes],
  });
  const headBytes = Buffer.byteLength(head);
  const entry = Buffer.allocUnsafe(headBytes + 1 + textBytes + htmlBytes + 1);
  let at = entry.write(head, 0);
  entry[at++] = NEWLINE;
  at += entry.write(text, at);
  at += entry.write(html, at);
  entry[at] = NEWLINE;
  return entry;
}

/** The message of an entry (or of an older version's JSON line). */
function parseEntry(entry: Buffer): OutboxMessage {
  const end = entry.indexOf(NEWLINE);
  const head = JSON.parse(entry.toString('utf8', 0, end < 0 ? entry.length : end)) as OutboxMessage & {
    parts?: number[];
  };
  const { parts, ...message } = head;
  if (!parts) return message;
  const [textBytes = 0, htmlBytes] = parts;
  const textAt = end + 1;
  message.text = entry.toString('utf8', textAt, textAt + textBytes);
  if (htmlBytes !== undefined)
    message.html = entry.toString('utf8', textAt + textBytes, textAt + textBytes + htmlBytes);
  return message;
}

const NEWLINE = 0x0a;

/** Bytes per index record: 8 (line offset), 4 (line length), 16 (key hash). */
const RECORD = 28;
const ZERO = Buffer.alloc(16);
const keyHash = (key: string) => createHash('sha256').update(key).digest().subarray(0, 16);
