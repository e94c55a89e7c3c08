import { z } from 'zod';
import { Email, Id, LimitQuery, PageQuery } from './common';

export * from './privacy-rules';

/** The sign-up's answer to "I am at least 16": only `true` lets a new reader complete their profile. */
export const AgeConfirmed = z.boolean({ error: 'ageConfirmed must be true or false' });

/** One reader's data held by one service: its kinds (likes, comments, ...), each a list of plain records. */
export const UserDataRequest = z.object({ userId: Id });
export const UserDataKind = z.object({
  /** The file name in the archive, without extension: `likes`, `reading-history`. */
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** A list that reads better in a spreadsheet: the archive holds a CSV beside the JSON. */
  csv: z.boolean().optional(),
});
export type UserDataKind = z.infer<typeof UserDataKind>;
export const UserDataResponse = z.object({ status: z.literal(true), kinds: z.array(UserDataKind) });

/** The services auth asks for a reader's data when it assembles their archive (auth adds its own). */
export const USER_DATA_SERVICES = ['content', 'engagement', 'billing', 'reporting'] as const;

export const DataRequestKind = z.enum(['export', 'deletion'], { error: 'kind must be export or deletion' });
export const DataRequestChannel = z.enum(['self-serve', 'email', 'admin']);
/** A data request as the admin list shows it; `dueAt` is one calendar month after `receivedAt`. */
export const DataRequest = z.object({
  _id: z.string(),
  kind: DataRequestKind,
  channel: DataRequestChannel,
  userId: z.string().nullable(),
  email: z.string(),
  receivedAt: z.string(),
  dueAt: z.string(),
  answeredAt: z.string().nullable(),
  note: z.string(),
});
export type DataRequest = z.infer<typeof DataRequest>;
export const DataRequestListQuery = z.object({
  page: PageQuery,
  limit: LimitQuery(100, 20),
});
export const DataRequestListResponse = z.object({
  status: z.literal(true),
  total: z.number(),
  data: z.array(DataRequest),
});
/** An admin records a request the reader made by e-mail. */
export const RecordDataRequestBody = z.object({
  token: z.string().optional(),
  email: Email,
  kind: DataRequestKind,
  receivedAt: z.iso.date({ error: 'receivedAt must be a date like 2026-11-28' }),
  note: z.string().trim().max(1000, 'The note must be 1000 characters or less').default(''),
});
export const DataRequestParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a valid id') });
export const DataRequestResponse = z.object({ status: z.literal(true), request: DataRequest });
export const ExportRequest = z.object({ token: z.string().optional() });
