import { z } from 'zod';
import {
  AdminAddUsersRequest,
  AdminAddUsersResponse,
  AdminUpdateUserRequest,
  AuthRequest,
  AuthResponse,
  GetAllUsersQuery,
  IdParams,
  IsAuthRequest,
  IsAuthResponse,
  LinkTokenParams,
  LogoutRequest,
  MessageResponse,
  NotificationDetailsResponse,
  OtpTransactionRequest,
  RangeExportRequest,
  SessionResponse,
  UnsubscribeParams,
  UpdateNameRequest,
  UpdateRequest,
  UserListResponse,
  UserResponse,
  VerifyRequest,
} from './auth';
import { BILLING_SCHEMAS } from './billing';
import { CONTENT_SCHEMAS } from './content';
import { ENGAGEMENT_SCHEMAS } from './engagement';
import { ERASURE_ROUTES, ERASURE_SCHEMAS } from './erasure';
import {
  DataRequestListQuery,
  DataRequestListResponse,
  DataRequestParams,
  DataRequestResponse,
  ExportRequest,
  RecordDataRequestBody,
} from './privacy';
import { REPORTING_SCHEMAS } from './reporting';
import type { Access, HttpMethod, RouteContract, RouteSchemas, ServiceName } from './route-types';

const R = 'reader.md §7';
const A = 'admin.md §7';
const BOTH = 'reader.md §7, admin.md §7';

const route = (
  method: HttpMethod,
  path: string,
  service: ServiceName,
  access: Access,
  summary: string,
  source: string,
): RouteContract => ({ method, path, service, access, summary, source });

/**
 * The gateway's routing table: every `/api` call of spec/reader.md and spec/admin.md, its owning service
 * (docs/ARCHITECTURE.md, "Shape") and who may call it. Within a prefix, literal paths are listed before
 * parametrised ones (`/api/template/add` before `/api/template/:id`), so a first-match walk of this array
 * gives the same answer as findRoute(), which ranks by specificity regardless of order.
 *
 * The embedded topology's `GET /api/dev/outbox` and the docs pages under `/api/docs` are served by the
 * gateway itself and are deliberately not in this table.
 */
export const apiRoutes: RouteContract[] = [
  // ── auth: users, sign-in, profiles, notification preferences, admin user management ──
  route('POST', '/api/user/auth', 'auth', 'public', 'Send a one-time sign-in code to an e-mail address', R),
  route(
    'POST',
    '/api/user/verify',
    'auth',
    'public',
    'Check a one-time code; returns the user and a token',
    R,
  ),
  route(
    'POST',
    '/api/user/isauth',
    'auth',
    'user',
    'Check the stored token; returns the signed-in user',
    BOTH,
  ),
  route(
    'POST',
    '/api/user/logout',
    'auth',
    'user',
    'Sign out: ends every session of the signed-in user on the server',
    'ours',
  ),
  route('POST', '/api/user/update', 'auth', 'user', 'Update the signed-in user’s profile and preferences', R),
  route(
    'POST',
    '/api/user/export',
    'auth',
    'user',
    'Download my data: one zip of everything held about the signed-in reader, gathered from every service',
    'ours',
  ),
  route(
    'GET',
    '/api/datarequests',
    'auth',
    'admin',
    'Data requests (export, deletion) with their due dates',
    'ours',
  ),
  route(
    'POST',
    '/api/datarequests',
    'auth',
    'admin',
    "Record a reader's data request received by e-mail",
    'ours',
  ),
  route(
    'POST',
    '/api/datarequests/:id/answered',
    'auth',
    'admin',
    'Mark a data request answered (today)',
    'ours',
  ),
  route(
    'POST',
    '/api/user/otpTransaction',
    'auth',
    'user',
    'Send or check a WhatsApp number verification code',
    R,
  ),
  route('POST', '/api/user/updatename', 'auth', 'user', 'Set the signed-in user’s first and last name', R),
  route(
    'POST',
    '/api/user/signinbytoken/:uid',
    'auth',
    'link',
    'Sign in with the signed token of an e-mail link',
    R,
  ),
  route(
    'GET',
    '/api/user/getnotificationdetails/:id',
    'auth',
    'link',
    'Notification preference of the user an unsubscribe link belongs to',
    R,
  ),
  route(
    'PUT',
    '/api/user/updatenotificationdetails/:id',
    'auth',
    'link',
    'Toggle notifications on or off from an unsubscribe link',
    R,
  ),
  route(
    'POST',
    '/api/user/unsubscribe/:id',
    'auth',
    'link',
    'RFC 8058 one-click unsubscribe (List-Unsubscribe-Post): turns reminders off',
    'ours',
  ),
  route(
    'GET',
    '/api/user/getallusers',
    'auth',
    'admin',
    'Page of users (page, limit, optional e-mail search)',
    A,
  ),
  route('GET', '/api/user/getalluserdata', 'auth', 'admin', 'Every user, for the CSV export', A),
  route(
    'POST',
    '/api/user/getpaginationluserdata',
    'auth',
    'admin',
    'Users in a range (from, to), for the CSV export',
    A,
  ),
  route('POST', '/api/user/add', 'auth', 'admin', 'Add users from a list of e-mails', A),
  route('GET', '/api/user/details/:id', 'auth', 'admin', 'One user', A),
  route('POST', '/api/user/update/:id', 'auth', 'admin', 'Edit one user', A),
  route(
    'POST',
    '/api/user/revokesessions/:id',
    'auth',
    'admin',
    'End every session of a user: their tokens are refused by every service',
    'ours',
  ),
  ...ERASURE_ROUTES,

  // ── content: topics, posts, feed, promotions, site settings, AI writer ──
  route('GET', '/api/topic/getalltopics', 'content', 'public', 'Every topic', BOTH),
  route('POST', '/api/topic/add', 'content', 'admin', 'Add a topic', A),
  route(
    'POST',
    '/api/logs/getallpost',
    'content',
    'public',
    'Feed page (page, limit, optional topicId) with topic counts',
    R,
  ),
  route('POST', '/api/logs/gettodaypost', 'content', 'user', 'Today’s post for the signed-in user', R),
  route(
    'POST',
    '/api/template/generate-content',
    'content',
    'admin',
    'AI writer: generate a post body from a prompt',
    A,
  ),
  route('POST', '/api/template/add', 'content', 'admin', 'Create a post with subject lines and an image', A),
  route('GET', '/api/template/templates', 'content', 'admin', 'Page of posts with e-mail analytics', A),
  route('GET', '/api/template/alltemplates', 'content', 'admin', 'Every post', A),
  route(
    'GET',
    '/api/template/allsubjecttemplates',
    'content',
    'admin',
    'Every post with per-subject-line analytics',
    A,
  ),
  route('GET', '/api/template/details/:id', 'content', 'admin', 'One post, for the edit form', A),
  route('POST', '/api/template/update/:id', 'content', 'admin', 'Edit a post', A),
  route(
    'POST',
    '/api/template/recommendations/:id',
    'content',
    'public',
    "Posts for the 'You might also like these' carousel of post :id: same topic first, the post itself excluded; query page, limit=5; body token optional; answers { status, templates, hasMore }",
    'ours (issue: content service)',
  ),
  route(
    'POST',
    '/api/template/:id',
    'content',
    'public',
    'One post for reading; premium bodies only for premium users and admins (token optional)',
    R,
  ),
  route('GET', '/api/promotion/all', 'content', 'admin', 'Every promotion', A),
  route(
    'GET',
    '/api/promotion/active',
    'content',
    'public',
    'Active, unexpired promotions for readers: { status, promotions: [{ _id, image, imageurl, heading, body, btntext, btnurl, expires }] }',
    'ours (issue: content service)',
  ),
  route('POST', '/api/promotion/add', 'content', 'admin', 'Add a promotion', A),
  route('GET', '/api/promotion/details/:id', 'content', 'admin', 'One promotion', A),
  route('POST', '/api/promotion/update/:id', 'content', 'admin', 'Edit a promotion', A),
  route('GET', '/api/sitesettings/fetch', 'content', 'public', 'Site settings (defaults filled in)', BOTH),
  route(
    'GET',
    '/api/media/:id',
    'content',
    'public',
    'An uploaded image (post or promotion); query w=480|960 gives a resized variant for cards; cached for a year',
    'ours (issue: content service)',
  ),
  route('PUT', '/api/sitesettings/update', 'content', 'admin', 'Save site settings', A),

  // ── engagement: likes, comments, reading history, check-ins, event intake ──
  route(
    'POST',
    '/api/like/getalllikedpost',
    'engagement',
    'user',
    'Page of posts the signed-in user liked',
    R,
  ),
  route('POST', '/api/like/add', 'engagement', 'user', 'Like or unlike a post', R),
  route('GET', '/api/comment/comments/:templateId', 'engagement', 'public', 'Page of a post’s comments', R),
  route('POST', '/api/comment/add', 'engagement', 'user', 'Comment on a post', R),
  route('POST', '/api/comment/edit', 'engagement', 'user', 'Edit one’s own comment', R),
  route('POST', '/api/comment/delete', 'engagement', 'user', 'Delete one’s own comment', R),
  route(
    'POST',
    '/api/history/getuserhistory',
    'engagement',
    'user',
    'The signed-in user’s reading history',
    R,
  ),
  route('POST', '/api/checkin/progress', 'engagement', 'user', 'Wellbeing score of the signed-in user', R),
  route('POST', '/api/checkin/add', 'engagement', 'admin', 'Add a check-in question', A),
  route('GET', '/api/checkin/details/:id', 'engagement', 'admin', 'One check-in question', A),
  route('POST', '/api/checkin/update/:id', 'engagement', 'admin', 'Edit a check-in question', A),
  route('GET', '/api/checkin/checkin', 'engagement', 'admin', 'Page of check-in questions', A),
  route(
    'GET',
    '/api/checkin/allcheckin',
    'engagement',
    'admin',
    'Every check-in question, for the CSV export',
    A,
  ),
  route(
    'POST',
    '/api/checkin',
    'engagement',
    'link',
    'Record a check-in answer from an e-mail link (qlid, a); signs the user in',
    R,
  ),
  route(
    'GET',
    '/api/reminder/open/:token',
    'engagement',
    'link',
    'The open-tracking image of a reminder e-mail (1x1 GIF); records the open once per send',
    'ours',
  ),
  route(
    'GET',
    '/api/reminder/go/:token',
    'engagement',
    'link',
    'A tracked link of a reminder: records the click, then redirects to the signed destination',
    'ours',
  ),

  route(
    'GET',
    '/api/admin/suppressions',
    'engagement',
    'admin',
    'Suppressed addresses (no reminder goes to them) with why and since when; one address whatever its state',
    'ours',
  ),
  route(
    'POST',
    '/api/admin/suppressions/lift',
    'engagement',
    'admin',
    'Lift a suppression: the address is sent to again (who and when recorded)',
    'ours',
  ),

  route(
    'POST',
    '/api/webhooks/ses',
    'engagement',
    'webhook',
    'Amazon SES bounces and complaints through SNS, verified by the SNS message signature; each event recorded once',
    'ours',
  ),
  route(
    'POST',
    '/api/webhooks/sendgrid',
    'engagement',
    'webhook',
    "SendGrid's Event Webhook, verified by its ECDSA signature; bounces, complaints and opt-outs recorded once each",
    'ours',
  ),
  route(
    'POST',
    '/api/webhooks/postmark',
    'engagement',
    'webhook',
    "Postmark's bounce, complaint and subscription-change webhook, behind HTTP basic auth; each event recorded once",
    'ours',
  ),

  // ── billing: subscription checkout, webhook, history, admin transactions ──
  route(
    'POST',
    '/api/payment/checkout',
    'billing',
    'user',
    'Start a yearly premium subscription checkout',
    R,
  ),
  route('POST', '/api/payment/details', 'billing', 'user', 'The signed-in user’s subscription', R),
  route('POST', '/api/payment/cancel', 'billing', 'user', 'Turn subscription renewal off', R),
  route('POST', '/api/payment/restart', 'billing', 'user', 'Turn subscription renewal back on', R),
  route('POST', '/api/payment/history', 'billing', 'user', 'The signed-in user’s payments', R),
  route(
    'POST',
    '/api/payment/confirm',
    'billing',
    'user',
    "The browser reports Razorpay checkout's handler result (razorpay_payment_id, razorpay_subscription_id, razorpay_signature); verified with the key secret",
    'ours (issue: billing service)',
  ),
  route(
    'GET',
    '/api/payment/simulated/:subscriptionId',
    'billing',
    'dev',
    'Embedded topology only: the simulated checkout page that stands in for Razorpay',
    'ours (issue: billing service)',
  ),
  route(
    'POST',
    '/api/payment/simulated/:subscriptionId',
    'billing',
    'dev',
    'Embedded topology only: completes or fails a simulated payment, sending signed webhooks to /api/payment/verification',
    'ours (issue: billing service)',
  ),
  route(
    'POST',
    '/api/payment/verification',
    'billing',
    'webhook',
    'Payment provider webhook, verified by HMAC-SHA256 of the raw body',
    'reader.md §7 (text below the table)',
  ),
  route(
    'POST',
    '/api/payment/alldata',
    'billing',
    'admin',
    'Page of subscription transactions (optional e-mail filter)',
    A,
  ),

  // ── reporting: web event intake, reports, report viewer data, event log reads ──
  route(
    'POST',
    '/api/eventlogs',
    'reporting',
    'public',
    'Record web analytics events: one, a list, or { token, events } (token optional)',
    R,
  ),
  route('POST', '/api/report/add', 'reporting', 'admin', 'Create a report', A),
  route('GET', '/api/report/details/:id', 'reporting', 'admin', 'One report', A),
  route('PUT', '/api/report/update/:id', 'reporting', 'admin', 'Edit a report', A),
  route(
    'POST',
    '/api/report/data',
    'reporting',
    'user',
    'Report viewer data (view, id, page, limit); only for the report’s access users',
    A,
  ),
  route(
    'GET',
    '/api/report/download',
    'reporting',
    'user',
    'Report data as CSV rows (view, id); admins and the report’s access users',
    A,
  ),
  route('GET', '/api/report', 'reporting', 'admin', 'Page of reports', A),
  route('POST', '/api/eventlogs/logs', 'reporting', 'admin', 'Page of the event log', A),
  route('POST', '/api/eventlogs/alllogs', 'reporting', 'admin', 'The whole event log, for the CSV export', A),
];

/** Browser (redirect) routes under /auth, proxied to the auth service; not JSON calls. */
export const browserRoutes: RouteContract[] = [
  route(
    'GET',
    '/auth/google',
    'auth',
    'public',
    'Start Google sign-in (redirectUrl query: where to return afterwards)',
    'reader.md §7 (text below the table)',
  ),
  route(
    'GET',
    '/auth/google/callback',
    'auth',
    'public',
    'Google sign-in callback; redirects back with a token',
    'ours (the OAuth redirect URI)',
  ),
  route(
    'GET',
    '/auth/logout',
    'auth',
    'public',
    'Sign out: ends the bearer token’s sessions, clears the sign-in cookie, redirects if asked',
    R,
  ),
];

interface CompiledRoute {
  route: RouteContract;
  method: string;
  /** A literal segment, or null for a parameter. */
  segments: (string | null)[];
}

const compile = (r: RouteContract): CompiledRoute => ({
  route: r,
  method: r.method,
  segments: splitPath(r.path).map((s) => (s.startsWith(':') ? null : s)),
});

const compiled: CompiledRoute[] = [...apiRoutes, ...browserRoutes].map(compile);

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

/** A parameter value must be one real segment: no dot-segments, no encoded slashes or backslashes. */
function isSafeParam(raw: string): boolean {
  if (raw === '') return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && !/[/\\]/.test(decoded);
}

function matches(c: CompiledRoute, segments: string[]): boolean {
  if (c.segments.length !== segments.length) return false;
  return c.segments.every((literal, i) => {
    const given = segments[i] ?? '';
    return literal === null ? isSafeParam(given) : literal === given;
  });
}

/** Positive when a is more specific than b: at the first segment where they differ in kind, a literal wins. */
function specificity(a: CompiledRoute, b: CompiledRoute): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const la = a.segments[i] !== null;
    const lb = b.segments[i] !== null;
    if (la !== lb) return la ? 1 : -1;
  }
  return 0;
}

/**
 * The route a concrete request path (no query string) belongs to, or undefined. Literal segments win over
 * parameters (`POST /api/template/add` is not `POST /api/template/:id`); HEAD matches GET routes; one
 * trailing slash is ignored. Matching is case-sensitive.
 */
export function findRoute(method: string, path: string): RouteContract | undefined {
  const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const queryAt = path.indexOf('?');
  const segments = splitPath(queryAt >= 0 ? path.slice(0, queryAt) : path);
  let best: CompiledRoute | undefined;
  for (const c of compiled) {
    if (c.method !== wanted || !matches(c, segments)) continue;
    if (!best || specificity(c, best) > 0) best = c;
  }
  return best?.route;
}

/** The request and response schemas of the routes whose service is built (auth so far), for validation and docs. */
const AUTH_SCHEMAS: RouteSchemas = {
  'POST /api/user/auth': { body: AuthRequest, response: AuthResponse },
  'POST /api/user/verify': { body: VerifyRequest, response: SessionResponse },
  'POST /api/user/isauth': { body: IsAuthRequest, response: IsAuthResponse },
  'POST /api/user/logout': { body: LogoutRequest, response: MessageResponse },
  'POST /api/user/export': { body: ExportRequest, produces: 'application/zip' },
  'GET /api/datarequests': { query: DataRequestListQuery, response: DataRequestListResponse },
  'POST /api/datarequests': { body: RecordDataRequestBody, response: DataRequestResponse },
  'POST /api/datarequests/:id/answered': { params: DataRequestParams, response: DataRequestResponse },
  'POST /api/user/update': { body: UpdateRequest, response: UserResponse },
  'POST /api/user/otpTransaction': { body: OtpTransactionRequest, response: MessageResponse },
  'POST /api/user/updatename': {
    body: UpdateNameRequest,
    response: UserResponse.extend({ message: z.string() }),
  },
  'POST /api/user/signinbytoken/:uid': { params: LinkTokenParams, response: SessionResponse },
  'GET /api/user/getnotificationdetails/:id': {
    params: UnsubscribeParams,
    response: NotificationDetailsResponse,
  },
  'PUT /api/user/updatenotificationdetails/:id': {
    params: UnsubscribeParams,
    response: NotificationDetailsResponse,
  },
  'GET /api/user/getallusers': { query: GetAllUsersQuery, response: UserListResponse },
  'GET /api/user/getalluserdata': { produces: 'text/csv' },
  'POST /api/user/getpaginationluserdata': { body: RangeExportRequest, produces: 'text/csv' },
  'POST /api/user/add': { body: AdminAddUsersRequest, response: AdminAddUsersResponse },
  'GET /api/user/details/:id': { params: IdParams, response: UserResponse },
  'POST /api/user/update/:id': { params: IdParams, body: AdminUpdateUserRequest, response: UserResponse },
  'POST /api/user/revokesessions/:id': { params: IdParams, response: MessageResponse },
};

/** Each service's request and response schemas, keyed 'METHOD /path' as in the table above. */
const SCHEMAS: RouteSchemas = {
  ...AUTH_SCHEMAS,
  ...ERASURE_SCHEMAS,
  ...CONTENT_SCHEMAS,
  ...ENGAGEMENT_SCHEMAS,
  ...BILLING_SCHEMAS,
  ...REPORTING_SCHEMAS,
};

/** An admin post or promotion carries one image of up to 5 MB as base64 in JSON: about 6.7 MB. */
const IMAGE_BODY = 8 * 1024 * 1024;
/** A report carries its logo (a data URL of up to 3,000,000 characters) and up to 100,000 user ids (about 2.7 MB). */
const REPORT_BODY = 8 * 1024 * 1024;

/** The admin routes whose bodies may be larger than BODY_LIMIT (RouteContract.largeBody), keyed as SCHEMAS. */
const LARGE_BODIES: Record<string, number> = {
  'POST /api/template/add': IMAGE_BODY,
  'POST /api/template/update/:id': IMAGE_BODY,
  'POST /api/promotion/add': IMAGE_BODY,
  'POST /api/promotion/update/:id': IMAGE_BODY,
  'POST /api/report/add': REPORT_BODY,
  'PUT /api/report/update/:id': REPORT_BODY,
};

for (const entry of apiRoutes) {
  const key = `${entry.method} ${entry.path}`;
  Object.assign(entry, SCHEMAS[key] ?? {});
  const largeBody = LARGE_BODIES[key];
  if (largeBody !== undefined) entry.largeBody = largeBody;
}

/** A service's routes that take bodies larger than BODY_LIMIT, as 'METHOD /path' with their limit in bytes. */
export const largeBodyRoutes = (service: ServiceName): { route: string; limit: number }[] =>
  apiRoutes.flatMap((r) =>
    r.service === service && r.largeBody !== undefined
      ? [{ route: `${r.method} ${r.path}`, limit: r.largeBody }]
      : [],
  );
