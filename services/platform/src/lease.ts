import { hostname } from 'node:os';
import { DuplicateKeyError } from './errors';
import { newId } from './ids';
import type { DocumentStore } from './store/types';

/** The collection of lease documents (one per singleton job, in the store of the service that runs it). */
export const LEASES = 'leases';

export type LeaseDoc = {
  _id: string;
  /** Who holds it (a process-unique id). */
  holder: string;
  /** Epoch ms after which anyone may take it over. */
  expiresAt: number;
  /** Counts takeovers: a new holder means a new term. */
  term: number;
};

export interface Lease {
  readonly holder: string;
  /**
   * Takes the lease when it is free or expired, or renews it when this holder has it. True when held afterwards.
   * Store errors reject (the caller treats that as not held).
   */
  acquire(): Promise<boolean>;
  /**
   * True while this holder may act: it held the lease at its last acquire and, by the local clock, that acquire was
   * less than ttl - margin ago. It goes false on its own before the store's expiry, so a holder that cannot renew
   * (a frozen or partitioned pod) stops before anyone else may take over.
   */
  held(): boolean;
  /** True when held() and more than a third of the ttl passed since the last renewal: acquire() now. */
  dueForRenewal(): boolean;
  /** Gives the lease up at once (graceful stop), so another holder takes over without waiting for the expiry. */
  release(): Promise<void>;
}

export interface LeaseOptions {
  store: DocumentStore;
  /** The job, e.g. `relay`. One lease document per name. */
  name: string;
  /** How long a holder keeps the lease without renewing it (ms). */
  ttlMs: number;
  /**
   * How long before the store's expiry the holder stops acting (ms; default a fifth of ttl): covers clock skew between
   * pods and a renewal that is slow to answer.
   */
  marginMs?: number;
  holder?: string;
  clock?: () => number;
}

/** A process-unique holder id: host (the pod's name in Kubernetes), pid and a random part. */
export const newHolderId = (): string => `${hostname()}:${process.pid}:${newId().slice(-8)}`;

/**
 * A lease document in the store: one holder at a time, fenced by expiry. Acquire is one atomic findOneAndUpdate whose
 * filter admits only the current holder (renewal) or an expired lease (takeover); the first acquire of a name
 * inserts the document, and a concurrent insert loses on the unique _id. Both store adapters do this atomically.
 * Pods' clocks are assumed synchronised (NTP) to well within the margin.
 */
export function createLease(opts: LeaseOptions): Lease {
  const leases = opts.store.collection<LeaseDoc>(LEASES);
  const holder = opts.holder ?? newHolderId();
  const clock = opts.clock ?? Date.now;
  const ttl = opts.ttlMs;
  const margin = opts.marginMs ?? Math.floor(ttl / 5);
  /** Local time of the start of the last successful acquire; the lease is ours until then + ttl - margin. */
  let acquiredAt: number | undefined;

  const take = async (): Promise<boolean> => {
    const now = clock();
    const mine = await leases.findOneAndUpdate(
      { _id: opts.name, holder },
      { $set: { expiresAt: now + ttl } },
    );
    if (mine) return stamp(now);
    const taken = await leases.findOneAndUpdate(
      { _id: opts.name, expiresAt: { $lte: now } },
      { $set: { holder, expiresAt: now + ttl }, $inc: { term: 1 } },
    );
    if (taken) return stamp(now);
    try {
      await leases.insertOne({ _id: opts.name, holder, expiresAt: now + ttl, term: 1 });
      return stamp(now);
    } catch (err) {
      if (err instanceof DuplicateKeyError) return lost();
      throw err;
    }
  };
  const stamp = (now: number) => {
    acquiredAt = now;
    return true;
  };
  const lost = () => {
    acquiredAt = undefined;
    return false;
  };
  const held = () => acquiredAt !== undefined && clock() < acquiredAt + ttl - margin;

  return {
    holder,
    async acquire() {
      try {
        return await take();
      } catch (err) {
        lost();
        throw err;
      }
    },
    held,
    dueForRenewal: () => held() && clock() - (acquiredAt ?? 0) > ttl / 3,
    async release() {
      const had = acquiredAt !== undefined;
      acquiredAt = undefined;
      if (had) await leases.updateOne({ _id: opts.name, holder }, { $set: { expiresAt: 0 } });
    },
  };
}
