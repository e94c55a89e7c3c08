import { AsyncResource } from 'node:async_hooks';
import { isUtf8 } from 'node:buffer';
import bytes from 'bytes';
import express, { type Request, type RequestHandler } from 'express';

/** The content types of nearly every API call's body (the web app's and the contract's clients'). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);
const UTF8_BOM = 0xfeff;
const FIRST_CHAR = /^[ \t\n\r]*([^ \t\n\r])/;

/** An error the error middleware maps as it maps body-parser's (errorHandler: by `type`, else by `status`). */
const bodyError = (status: number, type: string, message: string, cause?: unknown) =>
  Object.assign(new Error(message, cause ? { cause } : undefined), {
    status,
    statusCode: status,
    expose: true,
    type,
  });

const notUtf8 = () => bodyError(400, 'encoding.invalid', 'The request body is not valid UTF-8');

/**
 * express.json's `verify`: a UTF-8 body whose bytes are not UTF-8 is refused (400) rather than decoded with U+FFFD in
 * place of the bad bytes. Bodies in another charset are decoded by their charset's rules.
 */
export const utf8Only = (_req: unknown, _res: unknown, raw: Buffer, encoding: string): void => {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(raw)) throw notUtf8();
};

/**
 * JSON request bodies up to `limit`, as express.json({ limit }) parses them (strict: an object or an array; an empty
 * body is `{}`; a UTF-8 byte order mark is dropped), with the same errors (400 entity.parse.failed, 413
 * entity.too.large), and bytes that are not UTF-8 refused (400 encoding.invalid, utf8Only). A body of plain JSON with its length given (Content-Length, no Content-Encoding) is read here in
 * one pass; anything else (another charset or type, a compressed or chunked body) goes to express.json itself.
 * express.json pays per request for content-type parsing, a decoder stream and async-context bookkeeping, a
 * measurable share of a small API call.
 */
export function jsonBodies(limit: string): RequestHandler {
  const general = express.json({ limit, verify: utf8Only });
  const max = bytes.parse(limit) ?? 100 * 1024;
  return (req, res, next) => {
    // A body already read (by a larger limit's parser on the image routes) or a stream that ended: express.json's
    // own checks decide (it skips a finished request).
    if (!req.readable || (req as { _body?: boolean })._body) return general(req, res, next);
    const { headers } = req;
    const type = headers['content-type'];
    const length = headers['content-length'];
    const encoding = headers['content-encoding'];
    if (
      type === undefined ||
      length === undefined ||
      headers['transfer-encoding'] !== undefined ||
      (encoding !== undefined && encoding !== 'identity') ||
      !PLAIN_JSON.has(type.toLowerCase())
    )
      return general(req, res, next);
    const size = Number(length);
    if (!Number.isSafeInteger(size) || size < 0 || size > max) return general(req, res, next);
    readJson(req, size, next);
  };
}

function readJson(req: Request, size: number, then: (err?: unknown) => void): void {
  // The body's events come in the socket's async context: the request's (its request id, the active trace span) is
  // carried on to the next steps, as raw-body does for express.json.
  // One AsyncResource and runInAsyncScope: AsyncResource.bind builds a bound function and a deprecated getter on it
  // per call, a measurable part of a small request.
  const scope = new AsyncResource('nudge.json-body');
  const next = (err?: unknown) => scope.runInAsyncScope(then, undefined, err);
  (req as { _body?: boolean })._body = true;
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (err?: unknown) => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onAborted);
    if (err) {
      // Whatever is left of the body is not read: drop it, as body-parser does.
      req.resume();
      return next(err);
    }
    let body: unknown;
    try {
      body = parse(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
    } catch (parseError) {
      return next(parseError);
    }
    req.body = body;
    next();
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > size)
      finish(bodyError(400, 'request.size.invalid', 'request size did not match content length'));
    else chunks.push(chunk);
  };
  const onEnd = () =>
    finish(
      received === size
        ? undefined
        : bodyError(400, 'request.size.invalid', 'request size did not match content length'),
    );
  const onError = (err: unknown) => finish(bodyError(400, 'request.aborted', 'request aborted', err));
  const onAborted = () => finish(bodyError(400, 'request.aborted', 'request aborted'));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('aborted', onAborted);
}

function parse(raw: Buffer): unknown {
  if (!isUtf8(raw)) throw notUtf8();
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === UTF8_BOM) text = text.slice(1);
  if (text.length === 0) return {};
  const first = FIRST_CHAR.exec(text)?.[1];
  if (first !== '{' && first !== '[')
    throw bodyError(400, 'entity.parse.failed', `Unexpected token ${first ?? 'end'} in JSON`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw bodyError(400, 'entity.parse.failed', (err as Error).message, err);
  }
}
