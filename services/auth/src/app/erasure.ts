import { type DataRequest, dataRequestDueAt, ErasureEvents, eventData } from '@nudge/contracts';
import {
  type DevOutbox,
  type DocumentStore,
  type EventEnvelope,
  type EventStore,
  forbidden,
  handleCommand,
  type Keyring,
  notFound,
  type Projection,
} from '@nudge/platform';
import { decideErasure, userDecider, userStream } from '../domain/user';
import type { UserRepository } from './user-repository';

/** Auth's documents keyed by a reader's address or number (security state, not events): gone with the reader. */
const BY_ADDRESS = ['one_time_codes', 'rate_code_email', 'rate_code_whatsapp_number'] as const;

/**
 * Deleting a reader (crypto-shredding, see contracts' erasure.ts). The request deletes what auth keeps by the
 * reader's address (codes, rate counts) and appends auth.ReaderErased to their stream: that event is the durable
 * record of the deletion. The rest follows from it and resumes after a crash: auth's projections delete the reader's
 * document and address claim and forget their key (catch-up applies an event a crash left unprojected); every other
 * service blanks its copy when the event reaches it on the bus.
 */
export function createErasure(deps: {
  store: DocumentStore;
  events: EventStore;
  users: UserRepository;
  /** The capture outbox (embedded topology): the messages sent to the reader are erased from it. */
  outbox?: DevOutbox;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());

  /** Deletes the account. A reader already deleted: nothing to do. An unknown id: 404; an admin: 403 (demote first). */
  async function erase(
    userId: string,
    by: 'self' | 'admin',
    adminId: string | null,
  ): Promise<'erased' | 'already'> {
    const user = await deps.users.get(userId);
    if (!user) {
      const history = await deps.events.readStream(userStream(userId));
      if (history.some((e) => e.type === ErasureEvents.ReaderErased.type)) return 'already';
      throw notFound('User not found');
    }
    if (by === 'admin' && user.role === 'admin')
      throw forbidden('An admin account cannot be deleted here; change its role first');
    const codes = deps.store.collection(BY_ADDRESS[0]);
    await codes.deleteMany({ _id: { $in: [`email:${user.email}`] } });
    await codes.deleteMany({ _id: { $gte: `whatsapp:${user._id}:`, $lt: `whatsapp:${user._id};` } });
    await deps.store.collection(BY_ADDRESS[1]).deleteMany({ key: user.email });
    if (user.phone) await deps.store.collection(BY_ADDRESS[2]).deleteMany({ key: user.phone });
    await deps.outbox?.forget?.(user.email);
    if (user.phone) await deps.outbox?.forget?.(user.phone);
    await handleCommand(
      deps.events,
      userStream(userId),
      userDecider,
      (state) => decideErasure(state, by, adminId, clock()),
      { actor: adminId ?? userId },
    );
    return 'erased';
  }

  return { erase };
}

export type Erasure = ReturnType<typeof createErasure>;

/**
 * The side of a deletion that is not a read model: on auth.ReaderErased, the reader's address claim goes (signing up
 * again with the address starts a new account), their key is forgotten (every sealed copy of their personal fields
 * becomes unreadable), and the store's files are scrubbed of what was deleted. Idempotent, so a rebuild repeats it
 * harmlessly.
 */
export function createErasureProjection(store: DocumentStore, keyring: Keyring): Projection {
  const claims = store.collection<{ _id: string; userId: string }>('email_claims');
  const requests = dataRequestsCollection(store);
  return {
    name: 'auth.erasures',
    async apply(event: EventEnvelope) {
      if (event.type !== ErasureEvents.ReaderErased.type) return;
      const { userId, by, adminId, at } = eventData(ErasureEvents.ReaderErased, event);
      // The data request, in the register the admin's view lists (the one-month rule): asked and answered at once.
      // It holds no address, and the reader's earlier requests (exports) lose theirs.
      const record: DataRequest = {
        _id: `deletion-${userId}`,
        kind: 'deletion',
        channel: by === 'self' ? 'self-serve' : 'admin',
        userId,
        email: '',
        receivedAt: at,
        dueAt: dataRequestDueAt(new Date(at)).toISOString(),
        answeredAt: at,
        note: adminId ? `deleted by admin ${adminId}` : '',
      };
      await requests.updateMany({ userId }, { $set: { email: '' } });
      await requests.replaceOne({ _id: record._id }, record, { upsert: true });
      await claims.deleteMany({ userId });
      await keyring.forget(userId);
      // After this commit's other projections (the reader's document) are written.
      setTimeout(() => void store.scrub?.().catch(() => undefined), 50).unref();
    },
    // The register is not this projection's alone (exports and requests received by e-mail are written there
    // too): a rebuild writes each deletion's record again under its own id and drops nothing.
    async reset() {},
  };
}

/** The register of data requests (./data-requests), which deletions are recorded in. */
const dataRequestsCollection = (store: DocumentStore) => store.collection<DataRequest>('data_requests');
