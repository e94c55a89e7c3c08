import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { runWithContext } from '../context';
import { AppError } from '../errors';
import { httpMetrics } from '../metrics';
import { traceRequests } from '../tracing';

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
  /** Routes ('POST /api/template/add', express paths) that accept bodies up to a larger limit (image uploads). */
  largeBodies?: { limit: string; routes: string[] };
  /** The `service` label of this app's request metrics; default the logger's `service` (or `name`) binding. */
  service?: string;
}

/**
 * The express app every service starts from: request id + context, JSON bodies with a limit, /healthz.
 * Mount routers on it, then call finishApp() to add the 404 handler and the error middleware.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  const bindings = (typeof options.log.bindings === 'function' ? options.log.bindings() : {}) as {
    service?: unknown;
    name?: unknown;
  };
  const service = options.service ?? String(bindings.service ?? bindings.name ?? 'unknown');
  app.use(httpMetrics(service));
  app.use(traceRequests(service));
  app.use(requestContext(options.log));
  if (options.largeBodies) {
    const large = express.json({ limit: options.largeBodies.limit });
    for (const route of options.largeBodies.routes) {
      const [method, path] = route.split(' ') as [string, string];
      app[method.toLowerCase() as 'post' | 'put'](path, large);
    }
  }
  // A body the large parser already read is left alone (body-parser skips parsed requests).
  app.use(express.json({ limit: options.bodyLimit }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: true });
  });
  return app;
}

export function finishApp(app: Express, log: Logger): Express {
  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return app;
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
  const { type, status } = err as { type?: unknown; status?: unknown };
  switch (type) {
    case 'entity.too.large':
      return { status: 413, message: 'The request body is too large' };
    case 'entity.parse.failed':
      return { status: 400, message: 'The request body is not valid JSON' };
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
