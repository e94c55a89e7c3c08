import type { Server } from 'node:http';
import { type Config, loadConfig } from './config';

/**
 * How long the servers keep an idle keep-alive connection open (ms). Longer than the gateway's free-socket timeout
 * (30 s) and a load balancer's usual 60 s idle timeout, so the caller closes an idle connection first: a server that
 * closes one (Node's default is 5 s) races the caller writing the next request into it, which then fails with
 * ECONNRESET.
 */
export const SERVER_KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** What a client may take of a server's time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_IDLE_TIMEOUT_MS). */
export interface ServerTimeouts {
  /** To send a request's headers; then 408 and the connection is closed. */
  headersMs: number;
  /** To send a whole request, headers and body; then 408 and the connection is closed. */
  requestMs: number;
  /** Of silence on a connection while a request is open (a stalled body, an answer nobody reads); then it is closed. */
  idleMs: number;
}

export const serverTimeoutsOf = (config: Config): ServerTimeouts => ({
  headersMs: config.HTTP_HEADERS_TIMEOUT_MS,
  requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
  idleMs: config.HTTP_IDLE_TIMEOUT_MS,
});

/** The configuration's defaults, for servers started without a configuration (tests). */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = serverTimeoutsOf(loadConfig({}));

/**
 * Sets a server's timeouts: Node's defaults let a client hold a connection for 300 s with a request it never
 * finishes sending, and one it never reads an answer from for ever. Node checks the header and request timeouts of
 * open connections every `connectionsCheckingInterval` (30 s by default), which would let a timeout of a few seconds
 * run 30 s over: it is checked about ten times per header timeout here (at least every second).
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.timeout = timeouts.idleMs;
  // Read when the server starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1_000,
    Math.max(50, Math.floor(timeouts.headersMs / 10)),
  );
}
