import { createHash } from 'node:crypto';
import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkFolderFormat } from '../store/format';
import type { DevOutbox, OutboxMessage } from './types';

/**
 * The embedded topology's dev outbox on disk, for any number of messages. Two append-only files in `dir`:
 * - `messages.dat`: each message as a JSON line of its fields and headers, then its text and HTML parts as they
 *   are, their byte lengths in the line's `parts` (a JSON-escaped 6 KB e-mail cost more than a quarter of its whole
 *   send);
 * - `index.bin`: one fixed-size record per message, in arrival order: where its line starts, how long it is, and
 *   the hash of its idempotency key (zero without one).
 * Only the key hashes stay in memory (for the once-per-key rule); a page is read from the index's end (newest
 * first) and its bodies from the message file, on demand. Appends are grouped: one write to each file for all
 * the messages handed over in one turn of the event loop or while the last group was written (nextTurn), and a message's record is written after its line, so a crash between
 * leaves an unindexed line (never listed) and the re-delivery of that key stores it again.
 */
/** The file of the messages' entries. */
const DATA_FILE = 'messages.dat';

export async function openFileOutbox(dir: string, clock: () => Date = () => new Date()): Promise<FileOutbox> {
  await mkdir(dir, { recursive: true });
  const size = (name: string) =>
    stat(join(dir, name)).then(
      (s) => s.size,
      () => 0,
    );
  await checkFolderFormat(dir, (await size(DATA_FILE)) + (await size('index.bin')) > 0);
  // Read-write, not append mode: positional writes (Linux ignores the position in append mode).
  const openRw = async (name: string) => {
    await (await open(join(dir, name), 'a')).close();
    return open(join(dir, name), 'r+');
  };
  const data = await openRw(DATA_FILE);
  const index = await openRw('index.bin');
  let dataSize = (await data.stat()).size;
  let records = Math.floor((await index.stat()).size / RECORD);
  // A key's hash as a one-byte string (16 characters): the set costs about 40 bytes a key, not the 100 of a hex key.
  const keys = new Set<string>();
  const keyOf = (hash: Buffer) => hash.toString('latin1');
  // The key hashes of the messages stored so far (a torn last record, from a crash mid-write, is ignored).
  const whole = Buffer.alloc(records * RECORD);
  if (records > 0) await index.read(whole, 0, whole.length, 0);
  for (let i = 0; i < records; i++) {
    const hash = whole.subarray(i * RECORD + 12, (i + 1) * RECORD);
    if (hash.some((b) => b !== 0)) keys.add(keyOf(hash));
  }
  let indexSize = records * RECORD;

  let pending: Array<{ entry: Entry; hash: Buffer; done(err?: unknown): void }> = [];
  let writing: Promise<void> | null = null;
  let closed = false;
  /**
   * The bytes of one group of entries, encoded straight from their strings and reused from one write to the next
   * (one write at a time): no buffer per message for the allocator and the garbage collector to churn through.
   */
  let scratch = Buffer.alloc(0);

  async function writePending(): Promise<void> {
    try {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        try {
          const recordBuf = Buffer.alloc(batch.length * RECORD);
          const bound = batch.reduce((n, m) => n + entryBound(m.entry), 0);
          if (scratch.length < bound || scratch.length > SCRATCH_KEPT)
            scratch = Buffer.allocUnsafe(Math.max(bound, Math.min(SCRATCH_KEPT, 2 * scratch.length)));
          let total = 0;
          batch.forEach((m, i) => {
            const end = writeEntry(m.entry, scratch, total);
            recordBuf.writeBigUInt64BE(BigInt(dataSize + total), i * RECORD);
            recordBuf.writeUInt32BE(end - total, i * RECORD + 8);
            m.hash.copy(recordBuf, i * RECORD + 12);
            total = end;
          });
          await data.write(scratch, 0, total, dataSize);
          await index.write(recordBuf, 0, recordBuf.length, indexSize);
          dataSize += total;
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
    // Not an async function: one promise per message, the one its group's write settles.
    record(message) {
      if (closed) return Promise.reject(new Error('the dev outbox is closed'));
      const hash = message.idempotencyKey ? keyHash(message.idempotencyKey) : ZERO;
      // A re-delivery of a message already captured (same idempotency key): stored once.
      const key = hash === ZERO ? null : keyOf(hash);
      if (key !== null && keys.has(key)) return Promise.resolve();
      if (key !== null) keys.add(key);
      let entry: Entry;
      try {
        entry = entryOf(message, clock().toISOString());
      } catch (err) {
        if (key !== null) keys.delete(key);
        return Promise.reject(err);
      }
      return new Promise<void>((resolve, reject) => {
        pending.push({
          entry,
          hash,
          done: (err) => {
            if (err === undefined) return resolve();
            if (key !== null) keys.delete(key);
            reject(err);
          },
        });
        writing ??= nextTurn().then(writePending);
      });
    },
    // Newest first; `skip` for paging. Each page reads its records and lines from disk.
    list: (limit = 100, skip = 0) => readPage(limit, skip),
    async forget(to) {
      await writing;
      const wanted = to.toLowerCase();
      const recs = Buffer.alloc(records * RECORD);
      if (records > 0) await index.read(recs, 0, recs.length, 0);
      let erased = 0;
      for (let i = 0; i < records; i++) {
        const start = Number(recs.readBigUInt64BE(i * RECORD));
        const length = recs.readUInt32BE(i * RECORD + 8);
        const entry = Buffer.alloc(length);
        await data.read(entry, 0, length, start);
        const end = entry.indexOf(NEWLINE);
        const head =
          end > 0 ? (JSON.parse(entry.toString('utf8', 0, end)) as { to?: string; createdAt?: string }) : {};
        if (head.to?.toLowerCase() !== wanted) continue;
        // Overwritten in place with an entry of the same length that says only when a message was erased.
        await data.write(erasedEntry(length, head.createdAt ?? ''), 0, length, start);
        erased += 1;
      }
      if (erased > 0) await data.sync();
      return erased;
    },
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
 * holds a raw newline, so the first one ends the line). Kept as strings until its group is written: `head` is the
 * JSON of the fields without its closing brace, the parts' sizes are added when they are written.
 */
interface Entry {
  head: string;
  text: string;
  html: string | undefined;
}

function entryOf(message: Omit<OutboxMessage, 'createdAt'>, createdAt: string): Entry {
  const { text, html, ...fields } = message;
  const json = JSON.stringify({ ...fields, createdAt });
  return { head: json.length > 2 ? `${json.slice(0, -1)},` : '{', text, html };
}

/** UTF-8 takes at most 3 bytes per UTF-16 unit. */
const UTF8_MAX = 3;
/** Room for `"parts":[<text bytes>,<HTML bytes>]}` after the head. */
const PARTS_ROOM = 48;

/** Bytes the entry takes at most (its parts are encoded without measuring them first: one pass over each). */
const entryBound = (e: Entry) =>
  (e.head.length + e.text.length + (e.html?.length ?? 0)) * UTF8_MAX + PARTS_ROOM + 2;

/**
 * Encodes the entry into `into` at `at` (which has entryBound bytes from there); returns where it ends. The text
 * and the HTML are encoded past the head's room first (their sizes are then known), the head is written, and the
 * parts are moved up behind it.
 */
function writeEntry(e: Entry, into: Buffer, at: number): number {
  const partsAt = at + e.head.length * UTF8_MAX + PARTS_ROOM + 1;
  const textBytes = into.write(e.text, partsAt);
  const htmlBytes = e.html === undefined ? 0 : into.write(e.html, partsAt + textBytes);
  const parts = e.html === undefined ? `${textBytes}` : `${textBytes},${htmlBytes}`;
  let end = at + into.write(`${e.head}"parts":[${parts}]}`, at);
  into[end++] = NEWLINE;
  into.copyWithin(end, partsAt, partsAt + textBytes + htmlBytes);
  end += textBytes + htmlBytes;
  into[end++] = NEWLINE;
  return end;
}

/**
 * Resolves once this turn's promise jobs have run (setImmediate): a group starts to be written only then, so the
 * messages handed over in one turn form one group. The reminder batch's lanes resume together when their group is
 * written and each hands over its next message in that same turn; a write started at the first of them would take
 * that one message alone and the others would form the next group (groups of 1 and 31 in turn for 32 lanes: 16
 * messages a write on average instead of 31), and each write costs the main thread its request, its promises and its
 * callback.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A group's buffer above this size is not kept for the next group. */
const SCRATCH_KEPT = 4 * 1024 * 1024;

/** The message of an entry: its JSON line, then its text and HTML parts. */
function parseEntry(entry: Buffer): OutboxMessage {
  const end = entry.indexOf(NEWLINE);
  const head = JSON.parse(entry.toString('utf8', 0, end)) as OutboxMessage & { parts: number[] };
  const { parts, ...message } = head;
  const [textBytes = 0, htmlBytes] = parts;
  const textAt = end + 1;
  message.text = entry.toString('utf8', textAt, textAt + textBytes);
  if (htmlBytes !== undefined)
    message.html = entry.toString('utf8', textAt + textBytes, textAt + textBytes + htmlBytes);
  return message;
}

const NEWLINE = 0x0a;

/** An erased message's entry, `length` bytes: no recipient, no content (spaces pad it). */
function erasedEntry(length: number, createdAt: string): Buffer {
  const out = Buffer.alloc(length, 0x20);
  const line = `${JSON.stringify({ to: '', subject: '(erased)', createdAt, parts: [0] })}\n\n`;
  if (Buffer.byteLength(line) <= length) out.write(line);
  return out;
}

/** Bytes per index record: 8 (line offset), 4 (line length), 16 (key hash). */
const RECORD = 28;
const ZERO = Buffer.alloc(16);
const keyHash = (key: string) => createHash('sha256').update(key).digest().subarray(0, 16);
