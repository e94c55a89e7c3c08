import type { Collection, DocumentStore, Filter } from '@nudge/platform';
import type { UserState } from '../domain/user';

/**
 * The Users table's lookup keys, one small document per (key, user) beside the users read model, so its search and
 * topic filter look users up through one index instead of judging every user:
 * - `e:<text>` an e-mail's searchable texts, `n:<text>` a first or last name's (see searchTexts);
 * - `t:<topic id>` a topic the user follows.
 * A search word matches a user when it begins one of their texts: a prefix range on `k`, an index range on SQLite
 * and on MongoDB alike.
 */
export interface UserKeyDoc {
  _id: string;
  k: string;
  u: string;
}

export const userKeysCollection = (store: DocumentStore): Collection<UserKeyDoc> =>
  store.collection<UserKeyDoc>('user_keys');

/** Lower case without accents, so "MÜLL" finds "Müller" and "amelie" finds "Amélie". */
export const normaliseText = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * The texts a search word may begin: each word of the value, and each of its tails that starts at or right after a
 * character other than a letter or digit. "amy.filter@example.com" gives "amy.filter@example.com",
 * ".filter@example.com", "filter@example.com", "@example.com", "example.com", ".com" and "com", so a search finds a
 * user by any part of the address, its domain included.
 */
export function searchTexts(value: string): string[] {
  const out = new Set<string>();
  for (const word of normaliseText(value).split(/\s+/)) {
    if (!word) continue;
    out.add(word);
    const chars = [...word];
    chars.forEach((ch, i) => {
      if (/[\p{L}\p{N}]/u.test(ch)) return;
      out.add(chars.slice(i).join(''));
      if (i + 1 < chars.length) out.add(chars.slice(i + 1).join(''));
    });
  }
  return [...out];
}

/** Every key a user is found by. */
export function keysOf(user: Pick<UserState, 'email' | 'firstname' | 'lastname' | 'topics'>): string[] {
  const keys = new Set<string>();
  for (const text of searchTexts(user.email ?? '')) keys.add(`e:${text}`);
  for (const name of [user.firstname, user.lastname])
    for (const text of searchTexts(name ?? '')) keys.add(`n:${text}`);
  for (const topic of user.topics ?? []) keys.add(`t:${topic}`);
  return [...keys];
}

const keyId = (key: string, userId: string) => `${userId}|${key}`;

/** The smallest string above every string that begins with `prefix` (code point order, as both stores compare). */
function above(prefix: string): string {
  const points = [...prefix];
  const last = (points.pop() as string).codePointAt(0) as number;
  return points.join('') + String.fromCodePoint(last + 1);
}

export function createUserKeys(keys: Collection<UserKeyDoc>) {
  // Whole key documents: they are small, and a projection costs more than it saves.
  const idsWhere = async (filter: Filter): Promise<Set<string>> =>
    new Set((await keys.find(filter)).map((d) => d.u));
  const startingWith = (kind: string, word: string): Filter => ({
    k: { $gte: `${kind}:${word}`, $lt: above(`${kind}:${word}`) },
  });

  return {
    async ensureIndexes() {
      await keys.createIndex({ k: 1 });
      await keys.createIndex({ u: 1 });
    },

    /** Makes each user's keys those of their state now. */
    async write(states: ReadonlyArray<Parameters<typeof keysOf>[0] & { _id: string }>) {
      if (states.length === 0) return;
      const held = await keys.find({ u: { $in: states.map((s) => s._id) } });
      const heldIds = new Set(held.map((d) => d._id));
      const wantedIds = new Set<string>();
      const fresh: UserKeyDoc[] = [];
      for (const state of states)
        for (const k of keysOf(state)) {
          const _id = keyId(k, state._id);
          wantedIds.add(_id);
          if (!heldIds.has(_id)) fresh.push({ _id, k, u: state._id });
        }
      const stale = held.filter((d) => !wantedIds.has(d._id)).map((d) => d._id);
      if (stale.length) await keys.deleteMany({ _id: { $in: stale } });
      if (fresh.length) await keys.insertMany(fresh);
    },

    /** A deleted user's keys go (they hold words of the address and names). */
    async remove(userId: string) {
      await keys.deleteMany({ u: userId });
    },

    /**
     * The users matching every given search, or undefined when none is given: `email`, a text one of the e-mail's
     * texts begins with; `q`, words each beginning an e-mail or name text; `topic`, a topic followed.
     */
    async matching(q: { email?: string; q?: string; topic?: string }): Promise<Set<string> | undefined> {
      const sets: Array<Promise<Set<string>>> = [];
      const email = normaliseText(q.email ?? '').trim();
      if (email) sets.push(idsWhere(startingWith('e', email)));
      for (const word of normaliseText(q.q ?? '')
        .split(/\s+/)
        .filter(Boolean))
        sets.push(
          Promise.all([idsWhere(startingWith('e', word)), idsWhere(startingWith('n', word))]).then(
            ([a, b]) => new Set([...a, ...b]),
          ),
        );
      if (q.topic) sets.push(idsWhere({ k: `t:${q.topic}` }));
      if (sets.length === 0) return undefined;
      const found = (await Promise.all(sets)).sort((a, b) => a.size - b.size);
      const [smallest, ...rest] = found as [Set<string>, ...Set<string>[]];
      return new Set([...smallest].filter((id) => rest.every((s) => s.has(id))));
    },
  };
}

export type UserKeys = ReturnType<typeof createUserKeys>;
