import { randomUUID } from 'node:crypto';
import { findRoute } from '@nudge/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

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
    const started = process.hrtime.bigint();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
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
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}

function loggablePath(req: Request): string {
  const path = req.path;
  const route = findRoute(req.method, path);
  return route?.access === 'link' ? route.path : path;
}
