/** An API call that did not succeed: the server's `{ status: false, message }`, an HTTP error, or no answer at all. */
export class ApiError extends Error {
  /** The HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** The parsed JSON body of the answer, when there was one (a refusal can carry data, e.g. checkout's `user`). */
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export const UNREACHABLE_MESSAGE = 'Could not reach the server. Please check your connection and try again.';

/** True when the failure is an outage (no answer or a 5xx) rather than the server refusing the request. */
export const isOutage = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 0 || error.status >= 500);

export const errorMessage = (error: unknown, fallback = 'Something went wrong. Please try again.'): string =>
  error instanceof Error && error.message ? error.message : fallback;

export interface RequestOptions {
  body?: unknown;
  /** Send cookies (the event log and /auth calls). */
  withCredentials?: boolean;
  timeoutMs?: number;
  /** The stored login token, sent as `Authorization: Bearer` (GETs have no body to carry it). */
  token?: string | null;
}

type HttpMethod = 'GET' | 'POST' | 'PUT';

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * One JSON call to the gateway. Resolves with the body when the call succeeded; rejects with an ApiError carrying
 * the server's message otherwise (a 2xx whose body says `status: false` counts as a failure, as the contract says).
 * Bodies are not validated at run time: the shapes come from @nudge/contracts as types only, to keep zod out of the
 * bundle.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const init: RequestInit = {
    method,
    headers: {
      accept: 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    credentials: options.withCredentials ? 'include' : 'same-origin',
    signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  if (options.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(UNREACHABLE_MESSAGE, 0);
  }
  const body = await readJson(response);
  const message = messageOf(body);
  if (!response.ok)
    throw new ApiError(message ?? `The request failed (HTTP ${response.status})`, response.status, body);
  if (isRecord(body) && body.status === false)
    throw new ApiError(message ?? 'The request failed', response.status, body);
  return body as T;
}

async function readJson(response: Response): Promise<unknown> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const messageOf = (body: unknown): string | undefined =>
  isRecord(body) && typeof body.message === 'string' && body.message ? body.message : undefined;
