import type { ServiceName } from '@nudge/contracts';
import {
  type DocumentStore,
  expressRoute,
  httpMetrics,
  type DevOutbox as PlatformDevOutbox,
  readClientOnce,
  reserveClientReading,
  type TokenVerifier,
  traceRequests,
} from '@nudge/platform';
import bytes from 'bytes';
import compression from 'compression';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { bodyGate, closeIfBodyUnread } from './body-gate';
import { concurrencyPerClient, DEFAULT_MAX_IN_FLIGHT_PER_CLIENT } from './client-limit';
import { docsRouter } from './docs';
import { createLinkPreviews } from './link-preview';
import { memoryRateLimit } from './memory-limit';
import { buildOpenApiDocument } from './openapi';
import { createServiceProxy, type ServiceApp } from './proxy';
import { contractRoute } from './request-facts';
import { requestIdAndLog, requestIdOf } from './request-id';
import { sharedLimitStore } from './shared-limit';
import { webRouter } from './web';

/** The gateway only reads the dev outbox (platform's DevOutbox, newest first). */
export type DevOutbox = Pick<PlatformDevOutbox, 'list'>;

export interface GatewayOptions {
  /** Base URLs of the services, e.g. { auth: 'http://127.0.0.1:40123' }; a missing one answers 503. */
  services: Partial<Record<ServiceName, string>>;
  /**
   * Services whose express app runs in this process (the standalone topology): requests go to the app directly,
   * without a second HTTP hop over loopback. A service here is not proxied to its URL (the URL stays for the link
   * preview and the readiness of the process).
   */
  apps?: Partial<Record<ServiceName, ServiceApp>>;
  /** Folder of the built web app; served (with an index.html fallback for navigations) when it exists. */
  webDist?: string;
  /** Embedded topology only: GET /api/dev/outbox lists captured messages. Absent = the route does not exist. */
  devOutbox?: DevOutbox;
  /**
   * Whether callers on other machines may read the dev outbox (DEV_OUTBOX_REMOTE=on). Default: only callers on this
   * machine (a loopback peer that forwards for no one); others get 403.
   */
  devOutboxRemote?: boolean;
  /** Requests per minute per client IP, across /api and /auth. */
  rateLimitPerMinute: number;
  /**
   * Where the rate limit counts, shared by every gateway replica on it (the container topology's MongoDB). Absent =
   * counted in this process's memory (one gateway: the standalone topology).
   */
  rateLimitStore?: DocumentStore;
  /** /readyz answers 200 when every check is true, 503 otherwise. */
  readiness?: () => Promise<Record<string, boolean>>;
  /**
   * PUBLIC_URL: where a shared post's link preview (Open Graph tags) points. Absent: posts get the plain web shell,
   * without a preview.
   */
  publicUrl?: string;
  /** Extra facts /readyz shows under `detail` (e.g. dead-letter counts); informational, never a failure. */
  readinessDetail?: () => Promise<Record<string, unknown>>;
  log: Logger;
  /** Express's `trust proxy`: set it when a load balancer sits in front, so rate limits see the client IP. */
  trustProxy?: boolean | number;
  /**
   * Requests the gateway has in flight to the services at most (GATEWAY_MAX_IN_FLIGHT); past it, new ones are
   * answered 503 with Retry-After at once instead of queueing without bound (load shedding).
   */
  maxInFlight?: number;
  /**
   * API requests one client address may have open at once, a body still arriving included
   * (GATEWAY_MAX_IN_FLIGHT_PER_CLIENT); past it, new ones are answered 429 with Retry-After.
   */
  maxInFlightPerClient?: number;
  /** The body limit of every API route (BODY_LIMIT): bytes, or a size such as '100kb'. Default 100 KB. */
  bodyLimit?: number | string;
  /**
   * Verifies the session token of an Authorization header, so that an admin may send a route's larger body (an
   * image). Absent = no caller may send more than bodyLimit.
   */
  verifier?: TokenVerifier;
}

/**
 * The gateway as an express app (the caller listens): request ids and logs, security headers, rate limits,
 * health probes, the OpenAPI docs, the dev outbox (embedded), the proxy to the services and the web app.
 * It never parses request bodies: it waits for a contract call's whole body (within the route's limit) and passes its
 * bytes on to the service untouched.
 */
export function createGateway(opts: GatewayOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  // req.ip, req.ips and req.protocol are read once per request by this rule, and stand in the services' apps.
  readClientOnce(app);

  const limit = apiRateLimit(opts.rateLimitPerMinute, opts.rateLimitStore);
  const proxy = createServiceProxy(opts.services, opts.log, opts.apps);
  const perClient = concurrencyPerClient(
    opts.maxInFlightPerClient ?? DEFAULT_MAX_IN_FLIGHT_PER_CLIENT,
    clientKey,
    opts.log,
  );
  const wholeBody = bodyGate({
    limit: bytes.parse(opts.bodyLimit ?? DEFAULT_BODY_LIMIT) ?? 0,
    ...(opts.verifier ? { verifier: opts.verifier } : {}),
  });
  const shed = loadShedding(opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, opts.log);
  /**
   * The calls of the contract's routes (every /api and /auth call a service answers) skip the rest of this app's
   * router: its health, docs and dev-outbox routes (none of them a contract route) are each a step of the router that
   * an API call would otherwise pass. What they get: the rate limit, the bound per client, the whole body within the
   * route's limit (bodyGate), load shedding, the proxy, and on an error this app's error handler. The proxy answers
   * every request it takes (a service's app answers its own 404s), so nothing comes back to this app's later steps.
   */
  const toService = inSequence([limit, perClient, wholeBody, shed, proxy]);
  const apiLane: RequestHandler = (req, res, next) => {
    if (!PROXIED.test(req.path) || !contractRoute(req)) return next();
    toService(req, res, (err?: unknown) => (err ? next(err) : notFound(req, res)));
  };

  const everyRequest = inSequence([
    httpMetrics('gateway', gatewayRoute),
    traceRequests('gateway', gatewayRoute),
    requestIdAndLog(opts.log),
    securityHeaders(),
    // Responses above 1 KB (JSON from the services included, as it streams back through the proxy) go out
    // compressed when the client accepts it. Request bodies are never touched: they stream to the services as
    // sent. Precompressed web assets already carry a Content-Encoding, which compression leaves alone.
    compressWhenAccepted(compression({ threshold: 1024 })),
    // A call of a contract route goes to its service at once: rate limit, load shedding, proxy.
    apiLane,
  ]);
  app.use(everyRequest);

  app.get('/healthz', (_req, res) => {
    res.json({ status: true });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      const checks = (await opts.readiness?.()) ?? {};
      const ready = Object.values(checks).every(Boolean);
      const detail = opts.readinessDetail
        ? await opts.readinessDetail().catch((err: unknown) => {
            opts.log.warn({ err, requestId: requestIdOf(res) }, 'readiness detail failed');
            return { error: 'unavailable' };
          })
        : undefined;
      res.status(ready ? 200 : 503).json({ status: ready, checks, ...(detail ? { detail } : {}) });
    } catch (err) {
      opts.log.warn({ err, requestId: requestIdOf(res) }, 'readiness check failed');
      res.status(503).json({ status: false, checks: {}, message: 'The readiness check failed' });
    }
  });

  // Services' /internal routes are for service-to-service calls only.
  app.use('/internal', (_req, res) => {
    res.status(404).json({ status: false, message: 'Not found' });
  });

  // The API calls that are not contract routes (the docs, the dev outbox, unknown paths) are limited here.
  app.use(['/api', '/auth'], limit);
  app.use(
    docsRouter(
      buildOpenApiDocument({ devOutbox: Boolean(opts.devOutbox), onSchemaError: schemaWarning(opts.log) }),
    ),
  );
  if (opts.devOutbox)
    app.get('/api/dev/outbox', devOutboxHandler(opts.devOutbox, opts.devOutboxRemote ?? false));

  app.use((req, res, next) => {
    if (PROXIED.test(req.path)) shed(req, res, () => proxy(req, res, next));
    else next();
  });

  const web = webRouter(
    opts.webDist,
    opts.publicUrl ? createLinkPreviews(() => opts.services.content, opts.publicUrl) : undefined,
  );
  if (web) app.use(web);

  app.use(notFound);
  const onError = errorHandler(opts.log);
  app.use(onError);
  enterApiCallsDirectly(app, everyRequest, onError);
  return app;
}

/**
 * A call of a contract route (`/api`, `/auth`) enters the gateway's first step directly, not through express's
 * `app.handle` and router: they set up a final handler, the router's dispatch and the match of that step for every
 * request (about a tenth of what the gateway adds to a call), only to hand it to that first step, which answers
 * every contract call itself (apiLane). The request gets what `app.handle` and the router give it (the app's request
 * and response prototypes, `res.locals`, `req.originalUrl` and `req.baseUrl`), the same steps in the same order,
 * and an error or a throw goes to the gateway's error handler as express would send it. Every other request (web
 * assets, probes, docs, the dev outbox, an unknown path) goes through `app.handle`.
 */
function enterApiCallsDirectly(app: Express, firstStep: RequestHandler, onError: ErrorRequestHandler): void {
  type Handle = (req: Request, res: Response, callback?: (err?: unknown) => void) => void;
  const entry = app as unknown as { handle: Handle };
  const handle = entry.handle;
  const failed = (err: unknown, req: Request, res: Response, callback?: (err?: unknown) => void) => {
    if (callback) callback(err);
    else onError(err, req, res, () => undefined);
  };
  const onApiCall = (req: Request, res: Response, callback?: (err?: unknown) => void) => {
    giveShapeFirst(req, res);
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    try {
      // apiLane answers (or fails) every call of a contract route, as checked below, so nothing comes back here but
      // an error; its fall-through is the gateway's 404, as in the app.
      firstStep(req, res, (err?: unknown) => (err ? failed(err, req, res, callback) : notFound(req, res)));
    } catch (err) {
      failed(err, req, res, callback);
    }
  };
  entry.handle = (req, res, callback) => {
    const url = req.url ?? '/';
    if (
      (url.startsWith('/api') || url.startsWith('/auth')) &&
      PROXIED.test(pathOf(url)) &&
      contractRoute(req)
    )
      onApiCall(req, res, callback);
    else handle.call(app, req, res, callback);
  };
}

/**
 * Adds every property a contract call's request and response get on their way (express's app.handle and router, the
 * http kit, the client's reading, authenticate), in one order, while they still have Node's own prototypes. Added
 * after express has changed the prototypes (as express and its router add them), each request's object went through
 * maps of its own: driven in process, a feed page cost 10-15% more CPU. What is set is what those steps would find
 * there anyway (nothing, or what app.handle sets).
 */
function giveShapeFirst(req: Request, res: Response): void {
  const request = req as unknown as Record<string, unknown>;
  request.originalUrl = req.url;
  request.baseUrl = '';
  request.next = undefined;
  request.params = undefined;
  request.route = undefined;
  request.body = undefined;
  request._parsedUrl = undefined;
  request.auth = undefined;
  request.res = res;
  request._body = undefined;
  reserveClientReading(req);
  res.req = req;
  res.locals = Object.create(null);
}

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
};

const PROXIED = /^\/(?:api|auth)(?:\/|$)/;

function notFound(req: Request, res: Response): void {
  res.status(404).json({ status: false, message: `Not found: ${req.method} ${req.path}` });
}

/** The metrics' route label: the contract's pattern of a proxied route, else express's route, else `web`. */
function gatewayRoute(req: Request): string {
  if (req.route) return expressRoute(req);
  const path = (req.originalUrl ?? req.url).split('?')[0] ?? '/';
  if (PROXIED.test(path)) return contractRoute(req)?.path ?? 'unmatched';
  return 'web';
}

/**
 * Middlewares that run on every request, one after the other, as one step of express's router (every step of the
 * router costs about as much as a small middleware). Each handler's `next(err)` goes on to express's error handling.
 */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return handlers.reduceRight<RequestHandler>(
    (rest, handler) => (req, res, next) =>
      handler(req, res, (err?: unknown) => (err ? next(err) : rest(req, res, next))),
    (_req, _res, next) => next(),
  );
}

/**
 * `compression` for requests that accept an encoding: it wraps the response's write, end and writeHead and negotiates
 * at the headers of every answer, about 40 µs of a small API call even when nothing is compressed. A request without
 * Accept-Encoding (or with only identity) can only get identity, so it skips that. (Browsers always send it.)
 */
function compressWhenAccepted(compress: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const accepted = req.headers['accept-encoding'];
    if (!accepted || accepted === 'identity') next();
    else compress(req, res, next);
  };
}

/**
 * The security headers of every answer (helmet's, with the policy below). They never depend on the request, so they
 * are worked out once and set in one go: helmet's twelve middlewares per request were a measurable share of a small
 * API call. Left out as no use to today's browsers: X-Download-Options (IE 8), X-XSS-Protection (the XSS auditors
 * it switched off are gone) and X-DNS-Prefetch-Control.
 */
function securityHeaders(): RequestHandler {
  const headers = headersOf(helmetPolicy());
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The headers a request-independent middleware sets, collected by running it once against a stand-in answer. */
function headersOf(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  let done = false;
  const res = {
    setHeader(name: string, value: unknown) {
      headers.push([name, String(value)]);
      return res;
    },
    removeHeader() {},
    getHeader() {
      return undefined;
    },
  };
  middleware({ headers: {} } as Request, res as never, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('the security headers middleware did not finish at once');
  return headers;
}

function helmetPolicy(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        // Razorpay's checkout script and frame (opened from /upgrade) are the only third-party code.
        'script-src': ["'self'", 'https://checkout.razorpay.com'],
        'frame-src': ["'self'", 'https://api.razorpay.com', 'https://checkout.razorpay.com'],
        // swagger-ui and the web app set inline style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Post, promotion and logo images may be remote URLs; uploads preview as data: and blob: URLs.
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
        'object-src': ["'none'"],
        'frame-ancestors': ["'self'"],
        'form-action': ["'self'"],
        // The standalone topology serves plain http on a LAN address; upgrading would break it.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    xDownloadOptions: false,
    xXssProtection: false,
    xDnsPrefetchControl: false,
  });
}

const RATE_WINDOW_MS = 60_000;

/**
 * The client address the per-client limits count by (an IPv6 one by its /56, as express-rate-limit's default does),
 * without that default's per-request checks of the proxy settings.
 */
const clientKey = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? '');

function apiRateLimit(limit: number, store: DocumentStore | undefined): RequestHandler {
  const keyOf = clientKey;
  const refuse = (req: Request, res: Response) => {
    closeIfBodyUnread(req, res);
    res.status(429).json({ status: false, message: 'Too many requests, please try again later' });
  };
  // One gateway counting in its own memory (the standalone topology): counted at once, no promises per request.
  if (!store) return memoryRateLimit({ limit, windowMs: RATE_WINDOW_MS, keyOf, refuse });
  return rateLimit({
    windowMs: RATE_WINDOW_MS,
    limit,
    // draft-7's `RateLimit: limit=.., remaining=.., reset=..`: draft-8's form hashes the client key on every request.
    standardHeaders: 'draft-7',
    // The check that a request is not counted twice keeps a map per request; the gateway counts each request once
    // (one limiter, on one of two paths: see apiLane).
    validate: { singleCount: false },
    keyGenerator: keyOf,
    legacyHeaders: false,
    // A store that does not answer lets requests through (and express-rate-limit logs it): an outage of the
    // counters must not take the whole API down with it.
    store: sharedLimitStore(store, 'gateway_api', RATE_WINDOW_MS),
    passOnStoreError: true,
    handler: refuse,
  });
}

/** A peer on this machine that forwards for no one (a proxy on this machine would be reaching it for others). */
const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;
const fromThisMachine = (req: Request) =>
  LOOPBACK.test(req.socket.remoteAddress ?? '') &&
  req.headers['x-forwarded-for'] === undefined &&
  req.headers.forwarded === undefined;

function devOutboxHandler(outbox: DevOutbox, remote: boolean): RequestHandler {
  return async (req, res, next) => {
    if (!remote && !fromThisMachine(req)) {
      res.status(403).json({
        status: false,
        message:
          'The dev outbox answers only on the machine Nudge runs on (DEV_OUTBOX_REMOTE=on opens it to the network)',
      });
      return;
    }
    try {
      // Paged, newest first: ?page=1&limit=100 (limit at most 500), so a slot of many reminders stays browsable.
      const page = Math.max(1, Math.floor(Number(req.query.page ?? 1)) || 1);
      const limit = Math.min(500, Math.max(1, Math.floor(Number(req.query.limit ?? 100)) || 100));
      const messages = await outbox.list(limit, (page - 1) * limit);
      res.setHeader('cache-control', 'no-store');
      res.json({ messages });
    } catch (err) {
      next(err);
    }
  };
}

function schemaWarning(log: Logger) {
  return (route: { method: string; path: string }, part: string, error: unknown) =>
    log.warn(
      { err: error, route: `${route.method} ${route.path}`, part },
      'schema not expressible in OpenAPI',
    );
}

function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const given = Number((err as { status?: unknown; statusCode?: unknown }).status ?? err?.statusCode);
    const status = given >= 400 && given < 600 ? given : 500;
    if (status >= 500) log.error({ err, requestId: requestIdOf(res) }, 'gateway error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message =
      status >= 500
        ? 'Something went wrong in the gateway; please try again later'
        : err instanceof Error && (err as { expose?: boolean }).expose !== false
          ? err.message
          : 'Bad request';
    res.status(status).json({ status: false, message });
  };
}

export const DEFAULT_MAX_IN_FLIGHT = 512;
const DEFAULT_BODY_LIMIT = '100kb';

/**
 * Counts requests in flight to the services; past `max`, answers 503 with Retry-After at once. A burst gets answers
 * or quick refusals, never a pile of queued sockets and a process that stops answering.
 */
function loadShedding(max: number, log: Logger): RequestHandler {
  let inFlight = 0;
  let lastWarned = 0;
  return (_req, res, next) => {
    if (inFlight >= max) {
      const now = Date.now();
      if (now - lastWarned > 10_000) {
        lastWarned = now;
        log.warn(
          { inFlight, max, requestId: requestIdOf(res) },
          'shedding load: too many requests in flight',
        );
      }
      res.setHeader('retry-after', '1');
      res
        .status(503)
        .json({ status: false, message: 'The service is busy right now, please retry in a moment' });
      return;
    }
    inFlight += 1;
    // 'close' fires once per response, answered or aborted.
    res.once('close', () => {
      inFlight -= 1;
    });
    next();
  };
}
