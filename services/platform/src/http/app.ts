import { randomUUID } from 'node:crypto';
import etag from 'etag';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Logger } from 'pino';
import { runWithContext } from '../context';
import { AppError, badRequest } from '../errors';
import { httpMetrics } from '../metrics';
import { illFormedTextAt, illFormedTextMessage, isUtf8Target } from '../text';
import { traceHandedIn, traceRequests } from '../tracing';
import { fixClientReading, readClientOnce } from './client';
import { jsonBodies, utf8Only } from './json-body';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export interface HttpAppOptions {
  log: Logger;
  /** JSON body limit, e.g. '100kb'. */
  bodyLimit: string;
  /**
   * Whose X-Forwarded-For gives the client IP (express's `trust proxy`): TRUSTED_PROXIES, the gateway's addresses.
   * Default loopback (the standalone topology, where the gateway is on 127.0.0.1).
   */
  trustProxy?: boolean | number | string | string[];
  /**
   * Routes ('POST /api/template/add', express paths) that accept bodies up to a larger limit than `bodyLimit` (bytes
   * or '2mb'): image uploads (the contract's largeBodyRoutes, whose callers the gateway has checked), internal batches.
   */
  largeBodies?: { route: string; limit: number | string }[];
  /** The `service` label of this app's request metrics; default the logger's `service` (or `name`) binding. */
  service?: string;
}

const handedIn = new WeakSet<Request>();

/**
 * Marks a request the gateway hands to a service's app in this same process (the standalone topology, no HTTP hop).
 * The gateway has already given it its request id (request and response header), logged it and opened its trace
 * span, so the service does not do those again (see createHttpApp). Only the gateway can mark a request: the mark is
 * an object in memory, not anything a client sends.
 */
export function handInProcess(req: Request): void {
  // The client as the gateway read it stands in the service's app (readClientOnce).
  fixClientReading(req);
  handedIn.add(req);
}

/**
 * The express app every service starts from: request metrics, a trace span, request id + context, JSON bodies with
 * a limit, /healthz. Mount routers on it, then call finishApp() to add the 404 handler and the error middleware.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  readClientOnce(app);
  // No SHA-1 of every answer: ETags only where a client can revalidate (etagOnReads).
  app.set('etag', false);
  const bindings = (typeof options.log.bindings === 'function' ? options.log.bindings() : {}) as {
    service?: unknown;
    name?: unknown;
  };
  const service = options.service ?? String(bindings.service ?? bindings.name ?? 'unknown');
  app.use(requestEdge(service, options.log));
  for (const { route, limit } of options.largeBodies ?? []) {
    const [method, path] = route.split(' ') as [string, string];
    app[method.toLowerCase() as 'post' | 'put'](path, express.json({ limit, verify: utf8Only }));
  }
  // A body the large parser already read is left alone (body-parser skips parsed requests).
  app.use(jsonBodies(options.bodyLimit));
  app.use(validUnicode);
  app.get('/healthz', (_req, res) => {
    res.json({ status: true });
  });
  return app;
}

/**
 * Every string a route can read is valid Unicode, or the request is refused with a 400 before any route sees it: the
 * target's bytes (path and query) are UTF-8, and no string or key of the JSON body holds a lone surrogate. Refused,
 * not repaired: replacing what a client sent with U+FFFD would store something it did not write. The query and the
 * path parameters need no walk of their own: decoded from UTF-8 bytes, they cannot hold a lone surrogate.
 */
const validUnicode: RequestHandler = (req, _res, next) => {
  if (!isUtf8Target(req.url)) {
    next(badRequest('The request URL is not valid UTF-8: percent-escapes must spell UTF-8 text'));
    return;
  }
  const at = req.body !== undefined ? illFormedTextAt(req.body) : undefined;
  next(at === undefined ? undefined : badRequest(illFormedTextMessage(at, 'the request body')));
};

export function finishApp(app: Express, log: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return app;
}

const noop = () => {};

/**
 * What every request gets on the way in: the service's request metrics, its SERVER span (child of the caller's
 * `traceparent`), its request id and context, and ETags on reads (etagOnReads). A request the gateway handed over in process (handInProcess) keeps
 * the gateway's request id and log line, and its span is a child of the gateway's span, which is already active.
 */
function requestEdge(service: string, log: Logger): RequestHandler {
  const metrics = httpMetrics(service);
  const trace = traceRequests(service);
  const traceInProcess = traceHandedIn(service);
  const context = requestContext(log);
  return (req, res, next) => {
    metrics(req, res, noop);
    etagOnReads(req, res);
    if (handedIn.has(req)) {
      const requestId = String(req.headers['x-request-id']);
      traceInProcess(req, res, () => runWithContext({ requestId }, next));
      return;
    }
    trace(req, res, () => context(req, res, next));
  };
}

/**
 * A weak ETag (as express's default) on GET and HEAD answers, where a client's If-None-Match can turn the answer into
 * a 304. Other answers (POST: the reader's feed, isauth, every command) never revalidate, so hashing them is waste.
 */
function etagOnReads(req: Request, res: Response): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const send = res.send;
    res.send = function sendWithEtag(this: Response, body?: unknown) {
      if ((typeof body === 'string' || Buffer.isBuffer(body)) && !this.getHeader('etag'))
        this.setHeader('etag', etag(body, { weak: true }));
      return send.call(this, body);
    };
  }
}

function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.debug(
        { requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) },
        'request',
      );
    });
    runWithContext({ requestId }, next);
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ status: false, message: `No such route: ${req.method} ${req.path}` });
};

/** Maps AppError (and body-parser's errors) to the contract's `{ status: false, message }` with the right status. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof AppError) {
      if (err.httpStatus >= 500) log.error({ err, path: req.path }, err.message);
      res.status(err.httpStatus).json({ status: false, message: err.message });
      return;
    }
    const parserError = bodyParserError(err);
    if (parserError) {
      res.status(parserError.status).json({ status: false, message: parserError.message });
      return;
    }
    log.error({ err, path: req.path }, 'unhandled error');
    res
      .status(500)
      .json({ status: false, message: 'Something went wrong on our side; please try again later' });
  };
}

function bodyParserError(err: unknown): { status: number; message: string } | undefined {
  if (!err || typeof err !== 'object') return undefined;
  // The router's decoding of a path parameter ('%zz'): the client's malformed URL.
  if (err instanceof URIError)
    return { status: 400, message: 'The request path is not valid percent-encoding' };
  const { type, status } = err as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.too.large':
      return { status: 413, message: 'The request body is too large' };
    case 'entity.parse.failed':
      return { status: 400, message: 'The request body is not valid JSON' };
    case 'encoding.invalid':
      return { status: 400, message: 'The request body is not valid UTF-8' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'Unsupported request encoding' };
    default:
      // A body whose bytes do not match its Content-Encoding (zlib/brotli errors carry status 400): the client's fault.
      if (typeof status === 'number' && status >= 400 && status < 500)
        return { status, message: 'The request body could not be read: check its Content-Encoding' };
      return undefined;
  }
}
