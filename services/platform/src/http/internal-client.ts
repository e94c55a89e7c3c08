import http from 'node:http';
import https from 'node:https';
import { tracedHeaders } from '../tracing';

/** A refused internal call (4xx): retrying cannot help (Temporal: a non-retryable failure). */
export class BusinessRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'BusinessRefusal';
  }
}

/** A service that is down, slow or failing (no answer, a timeout, a 5xx): worth retrying. */
export class ServiceUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceUnavailable';
  }
}

/**
 * How long an idle pooled connection to a service is kept (ms): below the services' server keep-alive timeout
 * (SERVER_KEEP_ALIVE_TIMEOUT_MS, 65 s, in listen()), so the caller closes an idle connection before the service does
 * and never writes a request into a socket the service is closing (the gateway's agent keeps the same order).
 */
export const INTERNAL_FREE_SOCKET_TIMEOUT_MS = 30_000;

/**
 * One keep-alive pool per process for every internal call (and content's site settings read): a connection per call
 * in flight to each service, reused by the next call (most recently freed first, so a quiet period closes the rest).
 */
const agentOptions = {
  keepAlive: true,
  timeout: INTERNAL_FREE_SOCKET_TIMEOUT_MS,
  scheduling: 'lifo',
} as const;
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

/** A service's base URL taken apart once (the URLs are read at call time, so kept by their text). */
interface Target {
  secure: boolean;
  hostname: string;
  port: number;
  /** The base's own path, without its trailing slashes ('' for most). */
  prefix: string;
}
const targets = new Map<string, Target>();

function targetOf(base: string): Target {
  let target = targets.get(base);
  if (target === undefined) {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ServiceUnavailable(`not an http(s) URL: ${base}`);
    const secure = url.protocol === 'https:';
    target = {
      secure,
      // An IPv6 literal comes bracketed ([::1]); the request takes the bare address.
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : secure ? 443 : 80,
      prefix: url.pathname.replace(/\/+$/, ''),
    };
    if (targets.size > 64) targets.clear();
    targets.set(base, target);
  }
  return target;
}

export interface InternalExchange {
  /** Default GET, or POST when there is a body. */
  method?: 'GET' | 'POST';
  /** Sent as JSON (one JSON.stringify). */
  body?: unknown;
  /** The whole exchange (connecting, the request, the answer's last byte) must end within this (ms). */
  timeoutMs: number;
  /** More request headers (e.g. `accept`). */
  headers?: Record<string, string>;
}

export interface InternalAnswer {
  status: number;
  /** The answer's JSON (parsed once from one Buffer), or null when it is empty or not JSON. */
  body: unknown;
}

const UTF8_BOM = 0xfeff;

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === UTF8_BOM) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * One HTTP exchange with a service over the shared keep-alive pool: the answer's status and JSON. The active trace
 * context goes along (tracedHeaders), and the internal credential when one is given. Throws ServiceUnavailable when
 * no whole answer arrives: the connection refused or cut, or the deadline passed.
 */
export function exchange(
  base: string,
  path: string,
  request: InternalExchange & { internalToken?: string | undefined },
): Promise<InternalAnswer> {
  let target: Target;
  try {
    target = targetOf(base);
  } catch (err) {
    return Promise.reject(
      err instanceof ServiceUnavailable ? err : new ServiceUnavailable(`not a URL: ${base}`, { cause: err }),
    );
  }
  const headers: Record<string, string> = { ...request.headers };
  if (request.internalToken !== undefined) headers['x-internal-token'] = request.internalToken;
  let payload: Buffer | undefined;
  if (request.body !== undefined) {
    payload = Buffer.from(JSON.stringify(request.body), 'utf8');
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const where = `${base}${path}`;
  return new Promise<InternalAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(
        err instanceof ServiceUnavailable
          ? err
          : new ServiceUnavailable(`no answer from ${where}`, { cause: err }),
      );
    };
    const req = (target.secure ? https : http).request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.prefix + path,
        method: request.method ?? (payload ? 'POST' : 'GET'),
        headers: tracedHeaders(headers),
        agent: target.secure ? agents.https : agents.http,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
          resolve({ status: res.statusCode ?? 0, body: parseJson(raw) });
        });
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(new ServiceUnavailable(`the answer from ${where} was cut off`));
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(new ServiceUnavailable(`no answer from ${where} within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    timer.unref();
    req.on('error', fail);
    req.end(payload);
  });
}

/** Calls of one caller: its credential (none for a public route) given to every exchange. */
export interface InternalClient {
  /** The whole answer, whatever its status (see exchange). */
  exchange(base: string, path: string, request: InternalExchange): Promise<InternalAnswer>;
  /**
   * The JSON of a 2xx answer. A 4xx is a BusinessRefusal (its `message`, else the status); a 5xx, another status, an
   * answer that is not JSON, no answer or no base URL is a ServiceUnavailable. `service` names the callee in errors.
   */
  call<T>(service: string, base: string | undefined, path: string, request: InternalExchange): Promise<T>;
}

export function createInternalClient(opts: { internalToken?: string }): InternalClient {
  const { internalToken } = opts;
  return {
    exchange: (base, path, request) => exchange(base, path, { ...request, internalToken }),
    async call<T>(service: string, base: string | undefined, path: string, request: InternalExchange) {
      if (!base) throw new ServiceUnavailable(`the ${service} service URL is not configured`);
      let answer: InternalAnswer;
      try {
        answer = await exchange(base, path, { ...request, internalToken });
      } catch (err) {
        throw new ServiceUnavailable(`${service} did not answer ${path}`, { cause: err });
      }
      const { status, body } = answer;
      if (status >= 400 && status < 500) {
        const message = (body as { message?: unknown } | null)?.message;
        throw new BusinessRefusal(`${service} ${path}: ${String(message ?? status)}`, status);
      }
      if (status < 200 || status >= 300 || body === null)
        throw new ServiceUnavailable(`${service} ${path} answered ${status}`);
      return body as T;
    },
  };
}
