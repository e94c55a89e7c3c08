import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * Ed25519 signatures of many inputs at once, computed in a worker thread: a reminder batch needs two link tokens per
 * reader, and even crypto.sign on the thread pool costs the event loop about 25 us per signature to hand over (two
 * per reader add up to seconds per 100,000 readers). One message per batch costs it almost nothing.
 *
 * The worker is plain JavaScript (no loader), started on first use with the key as PKCS#8, kept alive only while a
 * batch is in flight (unref'd when idle, so it never holds the process open), and started again after a failure.
 */
export interface BatchSigner {
  /** The base64url signature of each input, in order. */
  sign(inputs: string[]): Promise<string[]>;
  close(): Promise<void>;
}

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createPrivateKey, sign } = require('node:crypto');
const key = createPrivateKey({ key: Buffer.from(workerData.der), format: 'der', type: 'pkcs8' });
parentPort.on('message', ({ id, inputs }) => {
  try {
    parentPort.postMessage({ id, signatures: inputs.map((input) => sign(null, Buffer.from(input), key).toString('base64url')) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
});
`;

type Pending = { resolve(signatures: string[]): void; reject(err: Error): void };

export function createBatchSigner(key: KeyObject): BatchSigner {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  const start = (): Worker => {
    const w = new Worker(WORKER_CODE, {
      eval: true,
      // Not the parent's loader flags (tsx): the code is plain JavaScript.
      execArgv: [],
      workerData: { der: key.export({ format: 'der', type: 'pkcs8' }) },
    });
    w.on('message', (m: { id: number; signatures?: string[]; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (pending.size === 0) w.unref();
      if (m.signatures) p.resolve(m.signatures);
      else p.reject(new Error(`link signing failed: ${m.error ?? 'unknown error'}`));
    });
    w.on('error', (err) => {
      if (worker === w) worker = null;
      failAll(err);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      if (pending.size > 0) failAll(new Error(`link signing worker exited (${code})`));
    });
    w.unref();
    return w;
  };

  return {
    sign(inputs) {
      if (inputs.length === 0) return Promise.resolve([]);
      worker ??= start();
      const w = worker;
      const id = nextId++;
      return new Promise<string[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, inputs });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      failAll(new Error('link signing closed'));
      await w?.terminate();
    },
  };
}
