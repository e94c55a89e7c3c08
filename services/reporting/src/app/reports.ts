import type { Report } from '@nudge/contracts';
import {
  AppError,
  badRequest,
  type DocumentStore,
  handleCommand,
  isId,
  newId,
  type ServiceEventStore,
} from '@nudge/platform';
import { type AnalyticsStore, forIdChunks } from '../analytics';
import {
  REPORT_NOT_FOUND,
  type ReportCommand,
  type ReportFields,
  reportDecider,
  reportStream,
} from '../domain/reports';
import { type ReportDoc, reportsCollection } from '../events/reports-projection';

export const REPORT_TEXTS = {
  added: 'Report Added Successfully',
  updated: 'Report updated successfully',
  invalidId: REPORT_NOT_FOUND,
  accessDenied: 'Access Denied',
} as const;

export const reportView = (doc: ReportDoc): Report => ({
  _id: doc._id,
  name: doc.name,
  logo: doc.logo,
  monitoredUsers: doc.monitoredUsers,
  accessUsers: doc.accessUsers,
  status: doc.status,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

/** Reports, event-sourced in reporting's document store (streams `report-<id>`). */
export function createReports(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  analytics: AnalyticsStore;
  clock: () => Date;
  /** After an update changed a report's monitored users (the old list's set may be unused now). */
  onMonitoredChanged?: () => Promise<void>;
}) {
  const reports = reportsCollection(deps.store);

  /** Unknown or malformed id: 'Invalid report id' (400 malformed, 404 unknown). */
  const load = async (id: string): Promise<ReportDoc> => {
    if (!isId(id)) throw badRequest(REPORT_TEXTS.invalidId);
    const doc = await reports.findOne({ _id: id });
    if (!doc) throw new AppError('not_found', REPORT_TEXTS.invalidId);
    return doc;
  };

  const command = (id: string, cmd: ReportCommand, actor: string) =>
    handleCommand(deps.events, reportStream(id), reportDecider, cmd, { actor });

  /** Every id must be a registered user (reporting's `users` table, fed by auth's events). */
  const refuseUnknownUsers = async (ids: string[]) => {
    if (ids.length === 0) return;
    const known = new Set(
      (
        await forIdChunks(ids, (chunk) =>
          deps.analytics.query<{ user_id: string }>(
            'SELECT DISTINCT user_id FROM users WHERE user_id IN {ids:Array(String)}',
            { ids: chunk },
          ),
        )
      ).map((r) => r.user_id),
    );
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw badRequest(
        `Unknown user id${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`,
      );
  };

  return {
    load,
    async add(fields: ReportFields, actor: string) {
      await refuseUnknownUsers([...new Set([...fields.monitoredUsers, ...fields.accessUsers])]);
      const now = deps.clock();
      const id = newId(now);
      await command(id, { kind: 'add', reportId: id, fields, createdAt: now.toISOString() }, actor);
      return reportView(await load(id));
    },
    async details(id: string) {
      return reportView(await load(id));
    },
    async update(id: string, changes: Partial<ReportFields>, actor: string) {
      const doc = await load(id);
      await refuseUnknownUsers([
        ...new Set([...(changes.monitoredUsers ?? []), ...(changes.accessUsers ?? [])]),
      ]);
      await command(id, { kind: 'update', changes }, actor);
      const updated = await load(id);
      if (updated.monitoredUsers.join('\n') !== doc.monitoredUsers.join('\n'))
        await deps.onMonitoredChanged?.();
      return reportView(updated);
    },
    /** Every report's monitored users (the sets in use). */
    async monitoredLists(): Promise<string[][]> {
      return (await reports.find({})).map((doc) => doc.monitoredUsers);
    },
    async page(page: number, limit: number) {
      const [docs, total] = await Promise.all([
        reports.find({}, { sort: { createdAt: -1, _id: -1 }, skip: (page - 1) * limit, limit }),
        reports.countDocuments({}),
      ]);
      return { total, data: docs.map(reportView) };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
