import {
  AuthEvents,
  DataRequestListQuery,
  DataRequestParams,
  ExportRequest,
  RecordDataRequestBody,
  type ServiceName,
  USER_DATA_SERVICES,
  type UserDataKind,
  UserDataResponse,
} from '@nudge/contracts';
import { csvLine } from '@nudge/contracts/csv';
import {
  claimsOf,
  createInternalClient,
  type EventStore,
  type Logger,
  parseBody,
  parseParams,
  parseQuery,
  requireRole,
  requireUser,
} from '@nudge/platform';
import { Router } from 'express';
import { ZipFile } from 'yazl';
import type { DataRequests } from '../app/data-requests';
import type { UserRepository } from '../app/user-repository';
import { toUserView } from '../domain/user-view';

/** How long one service may take to hand over a reader's data (years of history: a few thousand rows). */
const SERVICE_TIMEOUT_MS = 30_000;

/** The CSV of a list of records: the union of their fields as columns; nested values written as JSON. */
function toCsvText(rows: Record<string, unknown>[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
  return csvLine(columns) + rows.map((r) => csvLine(columns.map((c) => cell(r[c])))).join('');
}

/**
 * "Download my data" (POST /api/user/export) and the admin's register of data requests. The archive is assembled
 * here, in auth, from every service's /internal/privacy/user-data (the same calls in the standalone process and the
 * container topology: auth reaches the others at their service URLs), and streamed as a zip: a JSON file per kind,
 * a CSV beside it where the kind is a list that reads better in a spreadsheet.
 */
export function privacyRoutes(deps: {
  users: UserRepository;
  events: Pick<EventStore, 'readStream'>;
  dataRequests: DataRequests;
  internalToken: string;
  serviceUrls: () => Partial<Record<ServiceName, string>>;
  log: Logger;
}): Router {
  const router = Router();
  const client = createInternalClient({ internalToken: deps.internalToken });
  const admins = requireRole('admin');

  async function ownKinds(userId: string): Promise<UserDataKind[]> {
    const user = await deps.users.get(userId);
    const history = await deps.events.readStream(`user-${userId}`);
    const of = (type: string) =>
      history
        .filter((e) => e.type === type)
        .map((e) => ({ at: e.occurredAt, ...(e.data as Record<string, unknown>) }));
    return [
      { name: 'profile', rows: user ? [{ ...toUserView(user) }] : [] },
      { name: 'sign-ins', rows: of(AuthEvents.UserSignedIn.type), csv: true },
      { name: 'sessions-ended', rows: of(AuthEvents.SessionsRevoked.type), csv: true },
      {
        name: 'account-history',
        rows: history.map((e) => ({ at: e.occurredAt, type: e.type, data: e.data })),
      },
    ];
  }

  async function serviceKinds(service: (typeof USER_DATA_SERVICES)[number], userId: string) {
    const answer = await client.call(service, deps.serviceUrls()[service], '/internal/privacy/user-data', {
      method: 'POST',
      body: { userId },
      timeoutMs: SERVICE_TIMEOUT_MS,
    });
    return UserDataResponse.parse(answer).kinds;
  }

  router.post('/api/user/export', requireUser, async (req, res) => {
    parseBody(ExportRequest, req);
    const { userId, email } = claimsOf(req);
    // Every service answers before a byte is sent: a missing part fails the export (503) instead of a partial zip.
    const parts = await Promise.all([
      ownKinds(userId).then((kinds) => ({ service: 'auth', kinds })),
      ...USER_DATA_SERVICES.map(async (service) => ({ service, kinds: await serviceKinds(service, userId) })),
    ]);
    const zip = new ZipFile();
    const exportedAt = new Date();
    const index: { file: string; records: number }[] = [];
    for (const { service, kinds } of parts)
      for (const kind of kinds) {
        const base = `${service}/${kind.name}`;
        zip.addBuffer(Buffer.from(JSON.stringify(kind.rows, null, 2)), `${base}.json`);
        index.push({ file: `${base}.json`, records: kind.rows.length });
        if (kind.csv) {
          zip.addBuffer(Buffer.from(toCsvText(kind.rows)), `${base}.csv`);
          index.push({ file: `${base}.csv`, records: kind.rows.length });
        }
      }
    zip.addBuffer(
      Buffer.from(
        JSON.stringify({ email, userId, exportedAt: exportedAt.toISOString(), files: index }, null, 2),
      ),
      'README.json',
    );
    zip.end();
    await deps.dataRequests.record({
      kind: 'export',
      channel: 'self-serve',
      userId,
      email,
      receivedAt: exportedAt,
      answeredAt: exportedAt,
    });
    res.setHeader('content-type', 'application/zip');
    res.setHeader(
      'content-disposition',
      `attachment; filename="my-data-${exportedAt.toISOString().slice(0, 10)}.zip"`,
    );
    zip.outputStream.on('error', (err) => {
      deps.log.error({ err }, 'export: the archive failed while streaming');
      res.destroy(err);
    });
    zip.outputStream.pipe(res);
  });

  router.get('/api/datarequests', admins, async (req, res) => {
    const { page, limit } = parseQuery(DataRequestListQuery, req);
    res.json({ status: true, ...(await deps.dataRequests.page(page, limit)) });
  });

  router.post('/api/datarequests', admins, async (req, res) => {
    const { email, kind, receivedAt, note } = parseBody(RecordDataRequestBody, req);
    const user = await deps.users.byEmail(email);
    const request = await deps.dataRequests.record({
      kind,
      channel: 'email',
      userId: user?._id ?? null,
      email,
      receivedAt: new Date(`${receivedAt}T00:00:00.000Z`),
      note,
    });
    res.json({ status: true, request });
  });

  router.post('/api/datarequests/:id/answered', admins, async (req, res) => {
    const { id } = parseParams(DataRequestParams, req);
    res.json({ status: true, request: await deps.dataRequests.answered(id) });
  });

  return router;
}
