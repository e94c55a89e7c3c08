import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { contractRoute } from './request-facts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request id of this request (set by requestIdAndLog, which runs first). */
export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');

/** Accepts a sane incoming id or makes one; the proxied request and the response both carry it. */
export function pickRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Request id + one log line per request. The id replaces whatever the client sent in the request headers,
 * so http-proxy forwards exactly this id. Paths of e-mail-link routes carry credentials: those are logged
 * as their route pattern, and query strings are never logged.
 */
export function requestIdAndLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = pickRequestId(req.headers['x-request-id']);
    req.headers['x-request-id'] = requestId;
    res.locals.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    // One line per request (warn for a 5xx); nothing to build when neither would be written.
    if (!log.isLevelEnabled('warn')) return next();
    const started = process.hrtime.bigint();
    // 'close' comes once per response: after 'finish' when it was answered, alone when the client went away first.
    res.once('close', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const line = {
        requestId,
        method: req.method,
        path: loggablePath(req),
        status: res.statusCode,
        ms,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (res.statusCode >= 500) log.warn(line, 'request');
      else log.info(line, 'request');
    });
    next();
  };
}

function loggablePath(req: Request): string {
  const route = contractRoute(req);
  return route?.access === 'link' ? route.path : req.path;
}
