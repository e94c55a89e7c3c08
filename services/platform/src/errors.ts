/** The one error type. Domain and app code throw it; the http kit maps it to `{ status: false, message }`. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.httpStatus = HTTP_STATUS[code];
    this.details = details;
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError('bad_request', message, details);
export const unauthorized = (message = 'Please sign in to continue') => new AppError('unauthorized', message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('forbidden', message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
/** 410: the thing existed (a link) but may no longer be used. */
export const gone = (message: string) => new AppError('gone', message);
export const tooManyRequests = (message = 'Too many requests, please try again later') =>
  new AppError('too_many_requests', message);
export const unavailable = (message: string) => new AppError('unavailable', message);

/** Raised by a store when an insert breaks a unique key (both adapters raise this, never their own error). */
export class DuplicateKeyError extends Error {
  constructor(message = 'duplicate key') {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}

/** What a client is told when its change met another one at the same moment (never the stream and version). */
export const CONFLICT_MESSAGE = 'This was changed by another request at the same moment; please try again';

/**
 * Raised by the event store when the stream moved on since the command read it. The stream and version are kept for
 * logs only: the message a client may see says nothing about them.
 */
export class ConcurrencyError extends AppError {
  readonly stream: string;
  readonly expectedVersion: number;

  constructor(stream: string, expectedVersion: number) {
    super('conflict', CONFLICT_MESSAGE);
    this.name = 'ConcurrencyError';
    this.stream = stream;
    this.expectedVersion = expectedVersion;
  }
}
