import { type DueReader, dueTimesAt } from '@nudge/contracts';
import type { DocumentStore } from '@nudge/platform';
import type { NotificationStatus, UserState } from '../domain/user';
import { timeZonesCollection, usersCollection } from '../events/users-projection';

/** E-mail goes to these notification statuses; `autppause` (cold) and `manual` get none. */
const EMAIL_STATUSES: readonly NotificationStatus[] = ['active', 'autoactive'];

/**
 * Which readers are due at a slot (DESIGN.md §8): for each zone readers are in, the chosen times the slot rule
 * makes due there; then, for each (time, zone) in turn, the users with that time in that zone, by _id, paged. Only
 * readers (never an admin) whose reminders are on, whose address proved itself, and who have a channel to send on
 * now. A cursor names the (time, zone) group and the reader it comes after: a zone that gains its first reader while
 * a slot is sent moves no other group's position.
 */
export function createDueReaders(store: DocumentStore) {
  const users = usersCollection(store);
  const zones = timeZonesCollection(store);

  /** The (time, zone) pairs due at the instant, in a fixed order, with the zone's local date. */
  async function groupsAt(at: Date) {
    const groups: Array<{ time: string; zone: string; localDate: string }> = [];
    for (const { _id: zone } of await zones.find({}, { sort: { _id: 1 } })) {
      const { localDate, times } = dueTimesAt(at, zone);
      for (const time of times) groups.push({ time, zone, localDate });
    }
    return groups.sort((a, b) => compareGroups(a, b));
  }

  function toDue(u: UserState, localDate: string): DueReader | null {
    // Admins run the site; they are not readers and get no reminders (whatever their settings say).
    if (u.role === 'admin') return null;
    if (!u.proven || !u.notiinfo.active || u.notification_status === 'manual') return null;
    const email_on = u.enableEmail && EMAIL_STATUSES.includes(u.notification_status);
    const whatsapp = u.enableWA && u.phone ? u.phone : null;
    if (!email_on && !whatsapp) return null;
    return {
      userId: u._id,
      email: u.email,
      firstname: u.firstname,
      role: u.role,
      timeZone: u.timeZone,
      slot: u.notiinfo.time,
      localDate,
      email_on,
      whatsapp,
    };
  }

  /** The groups from the cursor's on, and the reader id to start after in the first of them. */
  async function from(at: Date, cursor: string | undefined) {
    const groups = await groupsAt(at);
    const after = parseCursor(cursor);
    if (!after) return { groups, afterId: '' };
    const rest = groups.filter((g) => compareGroups(g, after) >= 0);
    const first = rest[0];
    return { groups: rest, afterId: first && compareGroups(first, after) === 0 ? after.id : '' };
  }

  return {
    /**
     * Up to `limit` due readers after `cursor` and, with `until`, up to and including that position (a page range
     * that due-pages planned).
     */
    async page(at: Date, cursor: string | undefined, limit: number, until?: string) {
      const { groups, afterId: firstAfter } = await from(at, cursor);
      const end = until === undefined ? null : parseCursor(until);
      let afterId = firstAfter;
      let gi = 0;
      const readers: DueReader[] = [];
      while (gi < groups.length && readers.length < limit) {
        const group = groups[gi] as (typeof groups)[number];
        const past = end ? compareGroups(group, end) : -1;
        if (past > 0) return { readers, next: null };
        const want = limit - readers.length;
        // One zone at a time: the index {notiinfo.time, timeZone, _id} hands the page over in _id order, so a
        // page costs its own size whatever the slot's (several zones in one query had to sort all their rows).
        const docs = await users.find(
          {
            'notiinfo.time': group.time,
            timeZone: group.zone,
            _id: past === 0 && end ? { $gt: afterId, $lte: end.id } : { $gt: afterId },
          },
          { sort: { _id: 1 }, limit: want },
        );
        for (const u of docs) {
          const due = toDue(u, group.localDate);
          if (due) readers.push(due);
        }
        if (docs.length < want) {
          if (past === 0) return { readers, next: null };
          gi += 1;
          afterId = '';
        } else {
          afterId = docs[docs.length - 1]?._id ?? '';
        }
      }
      const group = groups[gi];
      return { readers, next: group ? cursorOf(group, afterId) : null };
    },

    /**
     * The slot's due readers cut into pages of `size` accounts in the (time, zone, id) order: where each page ends
     * (inclusive; null for a last page that runs to the end), up to `pages` of them after `cursor`. Only ids are
     * read; a page can hold fewer due readers than `size` (accounts that get nothing are filtered when it is read).
     */
    async pages(at: Date, cursor: string | undefined, size: number, pages: number) {
      const { groups, afterId: firstAfter } = await from(at, cursor);
      const ends: (string | null)[] = [];
      let inPage = 0;
      for (const [gi, group] of groups.entries()) {
        let afterId = gi === 0 ? firstAfter : '';
        for (;;) {
          const want = size - inPage;
          const docs = await users.find(
            { 'notiinfo.time': group.time, timeZone: group.zone, _id: { $gt: afterId } },
            { sort: { _id: 1 }, limit: want, projection: { _id: 1 } },
          );
          inPage += docs.length;
          afterId = docs[docs.length - 1]?._id ?? afterId;
          if (inPage === size) {
            const end = cursorOf(group, afterId);
            ends.push(end);
            inPage = 0;
            if (ends.length === pages) return { ends, next: end };
          }
          if (docs.length < want) break;
        }
      }
      if (inPage > 0) ends.push(null);
      return { ends, next: null };
    },
  };
}

interface Position {
  time: string;
  zone: string;
  id: string;
}

/** `<time>|<zone>|<reader id>`: the position after that reader of that (time, zone) group. */
const cursorOf = (group: { time: string; zone: string }, id: string) => `${group.time}|${group.zone}|${id}`;

/** A cursor's position, or null (none, or of another shape: the slot is read from its start). */
function parseCursor(cursor: string | undefined): Position | null {
  const [time, zone, id, extra] = (cursor ?? '').split('|');
  if (extra !== undefined || !time || !zone || id === undefined) return null;
  if (!/^\d{2}:\d{2}$/.test(time) || !/^[0-9a-f]{0,24}$/.test(id)) return null;
  return { time, zone, id };
}

/** The groups' order: by time, then zone (code points, as groupsAt sorts them). */
function compareGroups(a: { time: string; zone: string }, b: { time: string; zone: string }): number {
  if (a.time !== b.time) return a.time < b.time ? -1 : 1;
  return a.zone === b.zone ? 0 : a.zone < b.zone ? -1 : 1;
}

export type DueReaders = ReturnType<typeof createDueReaders>;
