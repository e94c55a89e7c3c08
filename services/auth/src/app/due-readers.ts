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
 * now. The cursor names the (time, zone) pair and the last _id, `<time>|<zone>|<lastId>`, so a zone joining or
 * leaving the set between two pages moves no reader to another page.
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
    return groups.sort(compareGroups);
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

  return {
    async page(at: Date, cursor: string | undefined, limit: number) {
      const groups = await groupsAt(at);
      let [gi, afterId] = resume(groups, cursor);
      const readers: DueReader[] = [];
      while (gi < groups.length && readers.length < limit) {
        const group = groups[gi] as (typeof groups)[number];
        const want = limit - readers.length;
        // One zone at a time: the index {notiinfo.time, timeZone, _id} hands the page over in _id order, so a
        // page costs its own size whatever the slot's (several zones in one query had to sort all their rows).
        const docs = await users.find(
          { 'notiinfo.time': group.time, timeZone: group.zone, _id: { $gt: afterId } },
          { sort: { _id: 1 }, limit: want },
        );
        for (const u of docs) {
          const due = toDue(u, group.localDate);
          if (due) readers.push(due);
        }
        if (docs.length < want) {
          gi += 1;
          afterId = '';
        } else {
          afterId = docs[docs.length - 1]?._id ?? '';
        }
      }
      const group = groups[gi];
      return { readers, next: group ? `${group.time}|${group.zone}|${afterId}` : null };
    },
  };
}

type Group = { time: string; zone: string };
const compareGroups = (a: Group, b: Group) =>
  a.time.localeCompare(b.time) || (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0);

/** Where a cursor goes on: its (time, zone) pair after its last _id, or the next pair when that one has left. */
function resume(groups: Group[], cursor: string | undefined): [number, string] {
  const [time, zone, id] = cursor?.split('|') ?? [];
  if (time === undefined || zone === undefined || id === undefined) return [0, ''];
  const at = { time, zone };
  const gi = groups.findIndex((g) => compareGroups(g, at) >= 0);
  if (gi < 0) return [groups.length, ''];
  const same = compareGroups(groups[gi] as Group, at) === 0;
  return [gi, same && /^[0-9a-f]{0,24}$/.test(id) ? id : ''];
}

export type DueReaders = ReturnType<typeof createDueReaders>;
