import { z } from 'zod';
import {
  IdParams,
  LinkSessionRequest,
  MintLinkResponse,
  MintRequest,
  SessionResponse,
  UserResponse,
} from './auth';
import { RefundReconcileRequest, RefundReconcileResponse } from './billing';
import { CheckinIssueRequest, CheckinIssueResponse } from './engagement';
import { EventHistoryQuery, EventHistoryResponse } from './event-history';
import { USER_DATA_SERVICES, UserDataRequest, UserDataResponse } from './privacy';
import {
  CheckinIssueBatchRequest,
  CheckinIssueBatchResponse,
  ClaimSendsRequest,
  ClaimSendsResponse,
  DuePagesRequest,
  DuePagesResponse,
  DueReadersRequest,
  DueReadersResponse,
  MintLinksRequest,
  MintLinksResponse,
  RecordSendsRequest,
  RecordSendsResponse,
  ReleaseSendsRequest,
  ReleaseSendsResponse,
  RemindersPostsRequest,
  RemindersPostsResponse,
  RenewalStepRequest,
  RenewalStepResponse,
  SendsRecordedRequest,
  SendsRecordedResponse,
} from './reminders';
import { EmailStatsRequest, EmailStatsResponse } from './reporting';
import type { HttpMethod, ServiceName } from './route-types';
import {
  DeliveryFactsRequest,
  DeliveryFactsResponse,
  SuppressionCheckRequest,
  SuppressionCheckResponse,
} from './suppressions';

/**
 * A service-to-service call under `/internal`: never routed by the gateway, refused without the internal
 * credential (`x-internal-token`). Declared here with its schemas like the public routes (DESIGN.md §8); batch
 * by default: one call per batch of readers, not per reader.
 */
export interface InternalRouteContract {
  method: HttpMethod;
  path: string;
  service: ServiceName;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

const internal = (
  method: HttpMethod,
  path: string,
  service: ServiceName,
  summary: string,
  schemas: Pick<InternalRouteContract, 'params' | 'query' | 'body' | 'response'> = {},
): InternalRouteContract => ({ method, path, service, summary, ...schemas });

/** Every /internal route of every service. */
export const internalApi: InternalRouteContract[] = [
  // ── auth: only auth signs tokens ──
  internal('POST', '/internal/tokens/signin-link', 'auth', 'A 7-day sign-in link token for a user', {
    body: MintRequest,
    response: MintLinkResponse,
  }),
  internal('POST', '/internal/tokens/unsubscribe', 'auth', 'A one-year unsubscribe link token for a user', {
    body: MintRequest,
    response: MintLinkResponse,
  }),
  internal(
    'POST',
    '/internal/tokens/session',
    'auth',
    'A session for a user who proved themselves with an e-mailed link (410 when it was issued before a sign-out)',
    {
      body: LinkSessionRequest,
      response: SessionResponse,
    },
  ),
  internal('GET', '/internal/users/:id', 'auth', 'One user as auth returns it', {
    params: IdParams,
    response: UserResponse,
  }),
  // ── engagement ──
  internal('POST', '/internal/checkin/issue', 'engagement', 'Issue a check-in question to a user', {
    body: CheckinIssueRequest,
    response: CheckinIssueResponse,
  }),
  // ── the reader's data ──
  ...USER_DATA_SERVICES.map((service) =>
    internal(
      'POST',
      '/internal/privacy/user-data',
      service,
      "Everything the service holds about one reader, kind by kind (the reader's data export)",
      { body: UserDataRequest, response: UserDataResponse },
    ),
  ),
  // ── reporting ──
  ...(['auth', 'content', 'engagement', 'billing', 'reporting'] as const).map((service) =>
    internal(
      'GET',
      '/internal/events',
      service,
      "The service's event history in commit order, paged (reporting's backfill)",
      {
        query: EventHistoryQuery,
        response: EventHistoryResponse,
      },
    ),
  ),
  internal(
    'POST',
    '/internal/email-stats',
    'reporting',
    'E-mail figures per post, subject line and user, for the admin lists of auth and content',
    { body: EmailStatsRequest, response: EmailStatsResponse },
  ),
  // ── reminders ──
  internal('POST', '/internal/reminders/due', 'auth', 'The readers due at a slot instant, paged', {
    body: DueReadersRequest,
    response: DueReadersResponse,
  }),
  internal(
    'POST',
    '/internal/reminders/due-pages',
    'auth',
    "A slot's due readers cut into pages (where each ends), for sending them in parallel",
    { body: DuePagesRequest, response: DuePagesResponse },
  ),
  internal(
    'POST',
    '/internal/tokens/links',
    'auth',
    'Sign-in and unsubscribe link tokens for a batch of users',
    {
      body: MintLinksRequest,
      response: MintLinksResponse,
    },
  ),
  internal(
    'POST',
    '/internal/reminders/posts',
    'content',
    "Today's post and Active subjects for a batch of readers",
    {
      body: RemindersPostsRequest,
      response: RemindersPostsResponse,
    },
  ),
  internal(
    'POST',
    '/internal/checkin/issue-batch',
    'engagement',
    'Issue a check-in question to each user of a batch',
    {
      body: CheckinIssueBatchRequest,
      response: CheckinIssueBatchResponse,
    },
  ),
  internal('POST', '/internal/reminders/recorded', 'engagement', 'Which send keys of a batch are recorded', {
    body: SendsRecordedRequest,
    response: SendsRecordedResponse,
  }),
  internal(
    'POST',
    '/internal/reminders/claim',
    'engagement',
    'Claim the send keys of a batch for one slot before delivering them',
    { body: ClaimSendsRequest, response: ClaimSendsResponse },
  ),
  internal(
    'POST',
    '/internal/reminders/release',
    'engagement',
    "Give back a slot's claims of sends that did not go",
    { body: ReleaseSendsRequest, response: ReleaseSendsResponse },
  ),
  internal('POST', '/internal/reminders/sent', 'engagement', 'Record a batch of sends (once per send key)', {
    body: RecordSendsRequest,
    response: RecordSendsResponse,
  }),
  internal(
    'POST',
    '/internal/suppressions/check',
    'engagement',
    'Which addresses of a batch are suppressed (no reminder goes to them)',
    { body: SuppressionCheckRequest, response: SuppressionCheckResponse },
  ),
  internal(
    'POST',
    '/internal/suppressions/facts',
    'engagement',
    'Record delivery facts (bounces, complaints, invalid addresses, opt-outs); suppresses by the rules',
    { body: DeliveryFactsRequest, response: DeliveryFactsResponse },
  ),
  internal(
    'POST',
    '/internal/subscriptions/renewal-step',
    'billing',
    "One step of a subscription's renewal workflow: the notice 7 days ahead, or the expiry",
    {
      body: RenewalStepRequest,
      response: RenewalStepResponse,
    },
  ),
  internal(
    'POST',
    '/internal/refunds/reconcile',
    'billing',
    'Refund reconciliation: settle refunds left pending with Razorpay',
    { body: RefundReconcileRequest, response: RefundReconcileResponse },
  ),
];

/** The declared internal route of a service for a method and Express path, or undefined. */
export const findInternalRoute = (service: ServiceName, method: HttpMethod, path: string) =>
  internalApi.find((r) => r.service === service && r.method === method && r.path === path);

export const InternalError = z.object({ status: z.literal(false), message: z.string() });
