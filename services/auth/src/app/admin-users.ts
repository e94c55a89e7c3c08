import { AuthEvents, dayRangeBounds, type GetAllUsersQuery, toCsv } from '@nudge/contracts';
import { badRequest, type EmailStatsReader, type Filter, forbidden, notFound } from '@nudge/platform';
import { z } from 'zod';
import {
  decideProfileChange,
  decideRoleChange,
  type ProfileChanges,
  type Role,
  type UserState,
} from '../domain/user';
import { type EmailStats, toUserView } from '../domain/user-view';
import type { UserRepository } from './user-repository';

export const RANGE_EXPORT_MAX = 10_000;

const CSV_HEADERS = [
  'Id',
  'Email',
  'First Name',
  'Last Name',
  'Role',
  'Verified',
  'Phone',
  'Email Notifications',
  'WhatsApp Notifications',
  'Notification Time',
  'Notification Status',
  'Notification Type',
  'Type',
  'Category',
  'Topics',
  'Time Zone',
  'Emails Sent',
  'Emails Opened',
  'Email Open Rate',
  'Last Email Open',
  'Last App Login',
  'Created On',
];

export type UserListQuery = Pick<GetAllUsersQuery, 'page' | 'limit' | 'sort' | 'order'> &
  Partial<Omit<GetAllUsersQuery, 'page' | 'limit' | 'sort' | 'order'>>;

/**
 * The Users table's exact filters as one store filter, every given one matching; `ids`, when given, the users the
 * search and topic filter found through their keys (../events/user-keys).
 */
function userListFilter(
  q: Omit<UserListQuery, 'page' | 'limit' | 'sort' | 'order' | 'email' | 'q' | 'topic'>,
  ids?: ReadonlySet<string>,
): Filter {
  const all: Filter[] = [];
  if (ids) all.push({ _id: { $in: [...ids] } });
  if (q.role) all.push({ role: q.role });
  if (q.status) all.push({ notification_status: q.status });
  if (q.type) all.push({ type: Number(q.type) });
  if (q.timeZone) all.push({ timeZone: q.timeZone });
  const { gte, lt } = dayRangeBounds(q);
  if (gte || lt) all.push({ createdAt: { ...(gte ? { $gte: gte } : {}), ...(lt ? { $lt: lt } : {}) } });
  if (all.length === 0) return {};
  return all.length === 1 ? (all[0] as Filter) : { $and: all };
}
const emailShape = z.email();

/**
 * The admin's user list, details and CSVs. E-mail figures come from reporting (POST /internal/email-stats), which
 * owns them; without an answer within ~1 s they read 0 (the reader logs a warning).
 */
export function createAdminUsers(users: UserRepository, emailStats?: EmailStatsReader) {
  const statsOf = async (states: UserState[]) => {
    const found = emailStats
      ? (await emailStats.read({ userIds: states.map((s) => s._id) })).users
      : ({} as Record<string, EmailStats>);
    return (state: UserState): EmailStats | undefined => found[state._id];
  };
  const views = async (states: UserState[]) => {
    const stats = await statsOf(states);
    return states.map((s) => toUserView(s, stats(s)));
  };
  const csvRows = async (states: UserState[]) => (await views(states)).map(csvRow);
  const csvRow = (u: ReturnType<typeof toUserView>) => {
    return [
      u._id,
      u.email,
      u.firstname,
      u.lastname,
      u.role,
      u.verified,
      u.phone,
      u.enableEmail,
      u.enableWA,
      u.notification_time,
      u.notification_status,
      u.notification_type,
      u.type === 1 ? 'cold' : 'normal',
      u.category,
      u.topics,
      u.timeZone,
      u.emails_sent,
      u.emails_open,
      u.email_open_rate,
      u.last_email_open,
      u.last_app_login,
      u.createdAt,
    ];
  };

  return {
    /**
     * A page of the Users table: `email` finds the users whose address has a part beginning with it, `q` those whose
     * address or name has a part beginning with each of its words (accents and case aside), the others match exactly.
     */
    async list(query: UserListQuery) {
      const ids = await users.keys.matching(query);
      if (ids?.size === 0) return { status: true as const, total: 0, data: [] };
      const filter = userListFilter(query, ids);
      const dir = query.order === 'asc' ? 1 : -1;
      const [total, data] = await Promise.all([
        users.users.countDocuments(filter),
        users.users.find(filter, {
          sort: { [query.sort]: dir, _id: dir },
          skip: (query.page - 1) * query.limit,
          limit: query.limit,
        }),
      ]);
      return { status: true as const, total, data: await views(data) };
    },

    async exportAll(): Promise<string> {
      const all = await users.users.find({}, { sort: { createdAt: 1, _id: 1 } });
      return toCsv(CSV_HEADERS, await csvRows(all));
    },

    /** admin.md §5: positions from..to (1-based, oldest first), To required, From <= To <= total, at most 10000 apart. */
    async exportRange(from: number, toRaw: string | number | undefined): Promise<string> {
      if (toRaw === undefined || toRaw === '') throw badRequest('Please enter To value');
      const to = Number(toRaw);
      if (!Number.isInteger(to) || to < 1) throw badRequest('To must be a whole number of 1 or more');
      const total = await users.users.countDocuments({});
      if (from > to || to > total) throw badRequest('From value should be less than To value');
      if (to - from > RANGE_EXPORT_MAX) throw badRequest('Difference should be less than 10000');
      const rows = await users.users.find(
        {},
        { sort: { createdAt: 1, _id: 1 }, skip: from - 1, limit: to - from + 1 },
      );
      return toCsv(CSV_HEADERS, await csvRows(rows));
    },

    /** POST /api/user/add: space-separated e-mails; all must be valid or nothing is added. */
    async add(
      input: {
        emails: string | string[];
        notiinfo: { time: string; active: boolean };
        topics: string[];
        type: 0 | 1;
      },
      actor: string,
    ) {
      const raw = (Array.isArray(input.emails) ? input.emails.join(' ') : input.emails)
        .split(/[\s,;]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean);
      if (raw.length === 0) throw badRequest('Please enter at least one email');
      if (raw.length > 1000) throw badRequest('At most 1000 emails at a time');
      const invalid = raw.filter((e) => !emailShape.safeParse(e).success);
      if (invalid.length) throw badRequest(`Not a valid email: ${invalid.slice(0, 5).join(', ')}`);
      const added: string[] = [];
      const skipped: string[] = [];
      for (const email of new Set(raw)) {
        const { created } = await users.findOrRegister(
          { email, source: 'admin', notiinfo: input.notiinfo, topics: input.topics, type: input.type },
          actor,
        );
        (created ? added : skipped).push(email);
      }
      const message = added.length
        ? 'Users Added Successfully'
        : 'No users were added: every email is already registered';
      return { status: true as const, message, added, skipped };
    },

    async details(userId: string) {
      const user = await users.get(userId);
      if (!user) throw notFound('User not found');
      return { status: true as const, user: (await views([user]))[0] };
    },

    async update(
      userId: string,
      changes: ProfileChanges & { role?: Role; verified?: boolean },
      actorId: string,
    ) {
      const { role, verified, ...profile } = changes;
      const updated = await users.update(
        userId,
        (user) => {
          if (role && role !== user.role && userId === actorId)
            throw forbidden('You cannot change your own role');
          const decided = decideProfileChange(user, profile);
          if (role) decided.push(...decideRoleChange(user, role, 'admin'));
          if (verified && !user.verified)
            decided.push({ type: AuthEvents.UserVerified.type, data: { userId, email: user.email } });
          return decided;
        },
        actorId,
      );
      if (!updated) throw notFound('User not found');
      return { status: true as const, user: (await views([updated]))[0] };
    },
  };
}
