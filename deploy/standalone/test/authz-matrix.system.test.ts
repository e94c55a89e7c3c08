import { apiRoutes } from '@nudge/contracts';
import { jsonCall } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Identity,
  MAY_NOT_READ_PREMIUM,
  PREMIUM_SECRET,
  startWorld,
  type World,
} from './security-world';

// The authorisation matrix. Every route of the routing table, called by each identity below with the one
// request its row builds; the status each identity must get is written in the one table MATRIX. A 5xx fails every
// cell, and no response to an identity that may not read premium posts carries the premium post's body.
//
// Bearer identities send their credential as `Authorization: Bearer`. On a link route (access 'link') the credential
// is the link itself, in the path or the query, so a link route shows which kind of link it takes and that the others
// (session tokens, a tampered link, a link of another purpose) are refused.

const IDENTITIES: Identity[] = [
  'anonymous',
  'user',
  'premium',
  'admin',
  'tampered',
  'signinLink',
  'unsubLink',
  'checkinLink',
];

interface Request {
  path: string;
  body?: unknown;
}
type Build = (w: World, credential: string) => Request;

const id24 = 'aaaaaaaaaaaaaaaaaaaaaaaa';
let emails = 0;
/** A link route's credential in the path: anonymous presents a made-up one. */
const link = (credential: string) => encodeURIComponent(credential || 'not-a-link-token');

/**
 * The whole matrix: per route, the request (default: the path with a made-up id, `{}` for a body) and the status
 * for anonymous, user, premium, admin, tampered, signinLink, unsubLink, checkinLink, in that order.
 */
const MATRIX: Record<string, { req?: Build; expect: string }> = {
  'POST /api/user/auth': {
    req: () => ({ path: '/api/user/auth', body: { email: `matrix-${++emails}@example.com` } }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'POST /api/user/verify': { expect: '400 400 400 400 400 400 400 400' },
  'POST /api/user/isauth': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/user/logout': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/user/update': { expect: '401 400 400 400 401 401 401 401' },
  'POST /api/user/otpTransaction': { expect: '401 400 400 400 401 401 401 401' },
  'POST /api/user/updatename': {
    req: () => ({ path: '/api/user/updatename', body: { firstname: 'Matrix', lastname: 'Reader' } }),
    expect: '401 200 200 200 401 401 401 401',
  },
  'POST /api/user/signinbytoken/:uid': {
    req: (_w, c) => ({ path: `/api/user/signinbytoken/${link(c)}`, body: {} }),
    expect: '401 401 401 401 401 200 401 401',
  },
  'GET /api/user/getnotificationdetails/:id': {
    req: (_w, c) => ({ path: `/api/user/getnotificationdetails/${link(c)}` }),
    expect: '401 401 401 401 401 401 200 401',
  },
  'PUT /api/user/updatenotificationdetails/:id': {
    req: (_w, c) => ({ path: `/api/user/updatenotificationdetails/${link(c)}`, body: {} }),
    expect: '401 401 401 401 401 401 200 401',
  },
  'POST /api/user/unsubscribe/:id': {
    req: (_w, c) => ({ path: `/api/user/unsubscribe/${link(c)}`, body: {} }),
    expect: '401 401 401 401 401 401 200 401',
  },
  'GET /api/user/getallusers': {
    req: () => ({ path: '/api/user/getallusers?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/user/getalluserdata': { expect: '401 403 403 200 401 401 401 401' },
  'POST /api/user/getpaginationluserdata': {
    req: () => ({ path: '/api/user/getpaginationluserdata', body: { from: 1, to: 5 } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/user/add': {
    req: () => ({ path: '/api/user/add', body: { info: { emails: 'added@example.com' } } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/user/details/:id': {
    req: (w) => ({ path: `/api/user/details/${w.ids.spare}` }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/user/update/:id': {
    req: (w) => ({ path: `/api/user/update/${w.ids.spare}`, body: { info: { firstname: 'Spare' } } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/user/revokesessions/:id': {
    req: (w) => ({ path: `/api/user/revokesessions/${w.ids.spare}`, body: {} }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/user/deleteaccount': {
    req: () => ({ path: '/api/user/deleteaccount', body: { confirm: 'DELETE' } }),
    expect: '401 200 200 200 401 401 401 401',
  },
  'POST /api/user/delete/:id': {
    req: () => ({ path: `/api/user/delete/${id24}`, body: {} }),
    expect: '401 403 403 404 401 401 401 401',
  },
  'GET /api/topic/getalltopics': { expect: '200 200 200 200 200 200 200 200' },
  'POST /api/topic/add': {
    req: () => ({ path: '/api/topic/add', body: { topic: 'Matrix' } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/logs/getallpost': {
    req: () => ({ path: '/api/logs/getallpost?page=1&limit=5', body: { subscription: true } }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'POST /api/logs/gettodaypost': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/template/generate-content': {
    req: () => ({ path: '/api/template/generate-content', body: { prompt: 'Breathing' } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/template/add': {
    req: (w) => ({
      path: '/api/template/add',
      body: {
        heading: 'Matrix post',
        body: 'Matrix body',
        subject: '',
        subjects: [],
        topic: w.ids.topic,
        type: 0,
      },
    }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/template/templates': {
    req: () => ({ path: '/api/template/templates?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/template/alltemplates': { expect: '401 403 403 200 401 401 401 401' },
  'GET /api/template/allsubjecttemplates': { expect: '401 403 403 200 401 401 401 401' },
  'GET /api/template/details/:id': {
    req: (w) => ({ path: `/api/template/details/${w.ids.premiumPost}` }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/template/update/:id': {
    req: (w) => ({ path: `/api/template/update/${w.ids.freePost}`, body: { info: { heading: 'Renamed' } } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/template/recommendations/:id': {
    req: (w) => ({ path: `/api/template/recommendations/${w.ids.freePost}?page=1&limit=5`, body: {} }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'POST /api/template/:id': {
    req: (w) => ({ path: `/api/template/${w.ids.premiumPost}`, body: {} }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'GET /api/promotion/all': { expect: '401 403 403 200 401 401 401 401' },
  'GET /api/promotion/active': { expect: '200 200 200 200 200 200 200 200' },
  'POST /api/promotion/add': {
    req: () => ({
      path: '/api/promotion/add',
      body: { heading: 'H', body: 'B', btntext: 'Go', btnurl: 'https://example.com/' },
    }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/promotion/details/:id': {
    req: (w) => ({ path: `/api/promotion/details/${w.ids.promotion}` }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/promotion/update/:id': {
    req: (w) => ({
      path: `/api/promotion/update/${w.ids.promotion}`,
      body: { info: { heading: 'Renamed' } },
    }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/sitesettings/fetch': { expect: '200 200 200 200 200 200 200 200' },
  'GET /api/media/:id': { expect: '404 404 404 404 404 404 404 404' },
  'PUT /api/sitesettings/update': {
    req: () => ({ path: '/api/sitesettings/update', body: { settings: {} } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/like/getalllikedpost': {
    req: () => ({ path: '/api/like/getalllikedpost?page=1&limit=5', body: {} }),
    expect: '401 200 200 200 401 401 401 401',
  },
  'POST /api/like/add': {
    req: (w) => ({ path: '/api/like/add', body: { templateid: w.ids.freePost, status: true } }),
    expect: '401 200 200 200 401 401 401 401',
  },
  'GET /api/comment/comments/:templateId': {
    req: (w) => ({ path: `/api/comment/comments/${w.ids.freePost}?page=1&limit=5` }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'POST /api/comment/add': {
    req: (w) => ({ path: '/api/comment/add', body: { templateid: w.ids.freePost, message: 'Matrix' } }),
    expect: '401 200 200 200 401 401 401 401',
  },
  'POST /api/comment/edit': {
    req: (w) => ({ path: '/api/comment/edit', body: { id: w.ids.comment, comment: 'Edited' } }),
    expect: '401 200 403 403 401 401 401 401',
  },
  'POST /api/comment/delete': {
    req: () => ({ path: '/api/comment/delete', body: { id: id24 } }),
    expect: '401 404 404 404 401 401 401 401',
  },
  'POST /api/history/getuserhistory': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/checkin/progress': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/checkin/add': {
    req: () => ({ path: '/api/checkin/add', body: { body: 'Matrix question?' } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/checkin/details/:id': {
    req: (w) => ({ path: `/api/checkin/details/${w.ids.checkin}` }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/checkin/update/:id': {
    req: (w) => ({ path: `/api/checkin/update/${w.ids.checkin}`, body: { order: 1 } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/checkin/checkin': {
    req: () => ({ path: '/api/checkin/checkin?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/checkin/allcheckin': { expect: '401 403 403 200 401 401 401 401' },
  'POST /api/checkin': {
    req: (_w, c) => ({ path: `/api/checkin?qlid=${link(c)}&a=3`, body: {} }),
    expect: '404 400 400 400 400 400 400 200',
  },
  'GET /api/reminder/open/:token': {
    req: (_w, c) => ({ path: `/api/reminder/open/${link(c)}` }),
    expect: '400 400 400 400 400 400 400 400',
  },
  'GET /api/reminder/go/:token': {
    req: (_w, c) => ({ path: `/api/reminder/go/${link(c)}` }),
    expect: '400 400 400 400 400 400 400 400',
  },
  // The premium identity was made premium by an admin: nothing to buy (409), as for the admin.
  'POST /api/payment/checkout': { expect: '401 200 409 409 401 401 401 401' },
  'POST /api/payment/details': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/payment/cancel': { expect: '401 409 409 409 401 401 401 401' },
  'POST /api/payment/restart': { expect: '401 409 409 409 401 401 401 401' },
  'POST /api/payment/history': { expect: '401 200 200 200 401 401 401 401' },
  'POST /api/payment/confirm': {
    req: () => ({
      path: '/api/payment/confirm',
      body: {
        razorpay_payment_id: 'pay_x1',
        razorpay_subscription_id: 'sub_x1',
        razorpay_signature: 'ab'.repeat(32),
      },
    }),
    expect: '401 400 400 400 401 401 401 401',
  },
  'GET /api/payment/simulated/:subscriptionId': {
    req: () => ({ path: '/api/payment/simulated/sub_x1' }),
    expect: '403 403 403 403 403 403 403 403',
  },
  'POST /api/payment/simulated/:subscriptionId': {
    req: () => ({ path: '/api/payment/simulated/sub_x1', body: {} }),
    expect: '403 403 403 403 403 403 403 403',
  },
  'POST /api/payment/verification': { expect: '400 400 400 400 400 400 400 400' },
  // Off until configured (the standalone process configures no mail provider): a clear 404 to everyone.
  'POST /api/webhooks/ses': { expect: '404 404 404 404 404 404 404 404' },
  'POST /api/webhooks/sendgrid': { expect: '404 404 404 404 404 404 404 404' },
  'POST /api/webhooks/postmark': { expect: '404 404 404 404 404 404 404 404' },
  'POST /api/payment/alldata': {
    req: () => ({ path: '/api/payment/alldata?page=1&limit=5', body: {} }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/eventlogs': {
    req: () => ({ path: '/api/eventlogs', body: { eventType: 'page_visit', eventValue: '/' } }),
    expect: '200 200 200 200 200 200 200 200',
  },
  'POST /api/report/add': {
    req: () => ({ path: '/api/report/add', body: { name: 'Matrix', logo: 'https://x.test/l.png' } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'GET /api/report/details/:id': {
    req: (w) => ({ path: `/api/report/details/${w.ids.report}` }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'PUT /api/report/update/:id': {
    req: (w) => ({ path: `/api/report/update/${w.ids.report}`, body: { name: 'Renamed' } }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/report/data': {
    req: (w) => ({ path: `/api/report/data?view=monthly&id=${w.ids.report}&page=1&limit=6`, body: {} }),
    expect: '401 200 403 200 401 401 401 401',
  },
  'GET /api/report/download': {
    req: (w) => ({ path: `/api/report/download?view=monthly&id=${w.ids.report}` }),
    expect: '401 200 403 200 401 401 401 401',
  },
  'GET /api/report': {
    req: () => ({ path: '/api/report?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/eventlogs/logs': {
    req: () => ({ path: '/api/eventlogs/logs?page=1&limit=5', body: {} }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/eventlogs/alllogs': {
    req: () => ({ path: '/api/eventlogs/alllogs', body: {} }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/user/export': { expect: '401 200 200 200 401 401 401 401' },
  'GET /api/datarequests': {
    req: () => ({ path: '/api/datarequests?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  'POST /api/datarequests': {
    req: () => ({
      path: '/api/datarequests',
      body: { email: `asked-${++emails}@example.com`, kind: 'export', receivedAt: '2026-11-20' },
    }),
    expect: '401 403 403 200 401 401 401 401',
  },
  // No such request in this world: the admin is told so (404), the others never reach the question.
  'POST /api/datarequests/:id/answered': {
    req: () => ({ path: `/api/datarequests/${id24}/answered`, body: {} }),
    expect: '401 403 403 404 401 401 401 401',
  },
  'GET /api/admin/suppressions': {
    req: () => ({ path: '/api/admin/suppressions?page=1&limit=5' }),
    expect: '401 403 403 200 401 401 401 401',
  },
  // Nobody is suppressed in this world: the admin is told so (404), the others never reach the question.
  'POST /api/admin/suppressions/lift': {
    req: () => ({
      path: '/api/admin/suppressions/lift',
      body: { channel: 'email', address: 'nobody@example.com' },
    }),
    expect: '401 403 403 404 401 401 401 401',
  },
};

/** Routes that end their caller's sessions: each cell gets a session of its own, so the shared ones stay valid. */
const ENDS_SESSION = new Set(['POST /api/user/logout', 'POST /api/user/deleteaccount']);

const PROBE = process.env.MATRIX_PROBE === '1';
let world: World;

beforeAll(async () => {
  world = await startWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

const defaultRequest =
  (method: string, path: string): Build =>
  () => ({
    path: path.replace(/:[A-Za-z]+/g, id24),
    ...(method === 'GET' ? {} : { body: {} }),
  });

describe('the authorisation matrix: every route x every identity', () => {
  it('the table names every route of the routing table, and only those', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(apiRoutes.map((r) => `${r.method} ${r.path}`).sort());
    for (const [name, row] of Object.entries(MATRIX)) {
      if (!PROBE) expect(row.expect.split(/\s+/), name).toHaveLength(IDENTITIES.length);
    }
  });

  it('each cell answers as the table says; no 5xx; no premium body to anyone who may not read it', async () => {
    const failures: string[] = [];
    const probed: string[] = [];
    let cells = 0;
    for (const route of apiRoutes) {
      const name = `${route.method} ${route.path}`;
      const row = MATRIX[name];
      if (!row) continue;
      const build = row.req ?? defaultRequest(route.method, route.path);
      const expected = row.expect.split(/\s+/);
      const seen: number[] = [];
      for (const [i, identity] of IDENTITIES.entries()) {
        let credential = world.credentials[identity];
        if (ENDS_SESSION.has(name) && ['user', 'premium', 'admin'].includes(identity)) {
          credential = await world.throwawaySession();
        }
        const isLink = route.access === 'link';
        const req = build(world, credential);
        const res = await jsonCall(
          world.app.url,
          route.method,
          req.path,
          req.body,
          isLink || identity === 'anonymous' ? undefined : credential,
        );
        cells += 1;
        seen.push(res.status);
        const where = `${name} as ${identity}`;
        if (res.status >= 500) failures.push(`${where}: ${res.status} ${res.text.slice(0, 200)}`);
        else if (!PROBE && String(res.status) !== expected[i]) {
          failures.push(`${where}: ${res.status}, the table says ${expected[i]} (${res.text.slice(0, 160)})`);
        }
        if (MAY_NOT_READ_PREMIUM.has(identity) && res.text.includes(PREMIUM_SECRET)) {
          failures.push(`${where}: the premium body leaked`);
        }
        // The marker is real: the premium post's readers do get its body from the reading route.
        if (name === 'POST /api/template/:id' && !MAY_NOT_READ_PREMIUM.has(identity)) {
          if (res.body?.template?.body !== PREMIUM_SECRET) failures.push(`${where}: no premium body`);
        }
        const isJson = res.headers.get('content-type')?.includes('json');
        if (
          res.status >= 400 &&
          isJson &&
          (res.body?.status !== false || typeof res.body?.message !== 'string')
        ) {
          failures.push(
            `${where}: a ${res.status} without { status: false, message }: ${res.text.slice(0, 160)}`,
          );
        }
      }
      probed.push(`  '${name}': '${seen.join(' ')}',`);
    }
    if (PROBE) console.log(probed.join('\n'));
    console.log(
      `authorisation matrix: ${cells} cells (${Object.keys(MATRIX).length} routes x ${IDENTITIES.length} identities)`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});
