import { AsyncResource } from 'node:async_hooks';
import type { RouteContract } from '@nudge/contracts';
import { type TokenVerifier, tokenFrom } from '@nudge/platform';
import type { Request, RequestHandler, Response } from 'express';
import { contractRoute } from './request-facts';

export interface BodyGateOptions {
  /** The body limit of every route (BODY_LIMIT), in bytes. */
  limit: number;
  /**
   * Verifies the session token of an Authorization header: a route's larger limit (RouteContract.largeBody) is for
   * admins only. Absent = no caller may send more than `limit`.
   */
  verifier?: TokenVerifier;
}

/** Whether a request says it has a body: a Content-Length above 0, or a Transfer-Encoding (chunked). */
export const declaresBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Makes the connection close after an answer given before the request's body was read (a refusal). Otherwise Node
 * keeps it open to read and drop the rest of the body, however slowly it comes, until the request timeout.
 */
export function closeIfBodyUnread(req: Request, res: Response): void {
  if (declaresBody(req) && !res.headersSent) res.setHeader('connection', 'close');
}

/**
 * Lets a contract call on only once its whole body has arrived, and only when it is within the route's limit: the
 * services (and the in-flight count behind this step) never wait on a client's body, and a body too large is refused
 * before it is read or parsed.
 *
 * - The limit is BODY_LIMIT, or the route's larger `largeBody` for a caller whose Authorization header holds an admin's
 *   session token (checked before a byte of the body is read; the service checks the role again after).
 * - A Content-Length over the limit is answered 413 at once; a chunked body is cut at the limit with a 413. Either
 *   way the connection is closed, so the rest of the body is never read.
 * - The body is read as bytes, not parsed, and put back into the request: the service's app (in process) or the proxy
 *   (to a service's URL) reads it as if it came from the socket, at once.
 * - A body that stops arriving is ended by the server's request timeout (HTTP_REQUEST_TIMEOUT_MS: 408, connection
 *   closed); a client that goes away ends it too. Nothing is answered then.
 */
export function bodyGate({ limit, verifier }: BodyGateOptions): RequestHandler {
  return (req, res, next) => {
    if (!declaresBody(req)) return next();
    const route = contractRoute(req);
    const length = declaredLength(req);
    if (route?.largeBody === undefined || (length !== undefined && length <= limit))
      return admit(req, res, next, limit, route);
    mayReadLarge(req, verifier).then(
      (may) => admit(req, res, next, may ? (route.largeBody as number) : limit, route),
      next,
    );
  };
}

/** The Content-Length, or undefined for a chunked body (Node refuses a request that has both, or a bad length). */
function declaredLength(req: Request): number | undefined {
  if (req.headers['transfer-encoding'] !== undefined) return undefined;
  return Number(req.headers['content-length']);
}

/** Whether the Authorization header holds an admin's session (the body, unread, holds no token yet). */
async function mayReadLarge(req: Request, verifier: TokenVerifier | undefined): Promise<boolean> {
  const token = tokenFrom(req);
  if (!verifier || !token) return false;
  return (await verifier.verifySession(token))?.role === 'admin';
}

/** A step of the gate, once the limit that applies to the caller is known. */
type Admit = (
  req: Request,
  res: Response,
  next: (err?: unknown) => void,
  limit: number,
  route: RouteContract | undefined,
) => void;

const admit: Admit = (req, res, next, limit, route) => {
  const length = declaredLength(req);
  if (length !== undefined && length > limit) {
    tooLarge(req, res, limit, route);
    return;
  }
  // Most bodies come in the same packets as their headers, which are parsed as soon as this step returns: by the next
  // tick such a request is complete, its body waiting unread in its stream, and goes on as it is.
  process.nextTick(arrived, req, res, next, limit, route);
};

const arrived: Admit = (req, res, next, limit, route) => {
  if (req.complete) {
    if (req.readableLength > limit) tooLarge(req, res, limit, route);
    else passOn(next);
    return;
  }
  // The rest of the body comes in the socket's async context: the request's (its request id, the active trace span)
  // is carried on to the next steps.
  const scope = new AsyncResource('nudge.body-gate');
  readBody(req, limit, (outcome) => {
    if (outcome === 'complete') scope.runInAsyncScope(passOn, undefined, next);
    else if (outcome === 'too large') scope.runInAsyncScope(tooLarge, undefined, req, res, limit, route);
  });
};

/** Goes on to the next steps; a throw there goes to the error handler, as express does with a throw in a step. */
function passOn(next: (err?: unknown) => void): void {
  try {
    next();
  } catch (err) {
    next(err);
  }
}

function tooLarge(req: Request, res: Response, limit: number, route: RouteContract | undefined): void {
  closeIfBodyUnread(req, res);
  const more =
    route?.largeBody !== undefined && route.largeBody > limit
      ? `; an admin may send up to ${sizeText(route.largeBody)} with their session token in the Authorization header`
      : '';
  res.status(413).json({
    status: false,
    message: `The request body is too large: at most ${sizeText(limit)} here${more}`,
  });
}

const sizeText = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.round(n / 1024)} KB`;

type Outcome = 'complete' | 'too large' | 'gone';

/**
 * Reads the rest of a request's body (its bytes as they arrive, at most `limit` in all) until the request is complete,
 * then puts it back at the front of the request's stream, unconsumed: whoever reads the request next gets the whole
 * body and its end. Paused mode with exact reads (`read(n)` of what is buffered) never lets the stream emit its 'end',
 * which would leave nothing to put back.
 */
function readBody(req: Request, limit: number, done: (outcome: Outcome) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (outcome: Outcome) => {
    req.off('readable', onReadable);
    req.off('close', onGone);
    req.off('error', onGone);
    if (outcome === 'complete' && size > 0)
      req.unshift(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    done(outcome);
  };
  const onReadable = () => {
    for (let n = req.readableLength; n > 0; n = req.readableLength) {
      const chunk = req.read(n) as Buffer | null;
      if (chunk === null) break;
      size += chunk.length;
      if (size > limit) return finish('too large');
      chunks.push(chunk);
    }
    if (req.complete) finish('complete');
  };
  const onGone = () => finish('gone');
  req.on('readable', onReadable);
  req.on('close', onGone);
  req.on('error', onGone);
}
