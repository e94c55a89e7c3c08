import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Standalone } from '../src/index';
import { gatewayClient, testStandaloneEnv } from './helpers';
import { type StandaloneProcess, spawnStandalone } from './standalone-process';

// The slow-body attack on `npm start`, with real sockets: 520 connections from one address send a POST's headers with
// `Content-Length: 100` and one byte of body, then idle. Meanwhile an ordinary reader, from another address, reads the
// feed and checks their session: every call answers normally and fast. The in-flight limit is set below what the
// attacker holds, so a request counted before its body arrived would turn the reader away with 503; the attacker's
// address holds at most GATEWAY_MAX_IN_FLIGHT_PER_CLIENT requests (the rest are refused at once), and the server's
// request timeout closes those.

const ATTACK = 520;
const PER_CLIENT = 64;
const MAX_IN_FLIGHT = 32;
/** Long enough for all 520 connections to be opened and sorted (held or refused) first, on a busy machine too. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Linux routes all of 127.0.0.0/8 to this machine: the attacker is 127.0.0.2, the reader 127.0.0.1. */
const ATTACKER = '127.0.0.2';

let dataDir: string;
let standalone: StandaloneProcess;
const { ok, call, signIn } = gatewayClient(() => ({ url: standalone.url }) as Standalone);
let reader = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-slow-bodies-'));
  standalone = await spawnStandalone(
    testStandaloneEnv(dataDir, {
      LOG_LEVEL: 'warn',
      GATEWAY_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
      GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: String(PER_CLIENT),
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      RATE_LIMIT_PER_MINUTE: '100000',
    }),
  );
  reader = (await signIn('reader@example.com')).token;
}, 180_000);
afterAll(async () => {
  await standalone?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface SlowBody {
  socket: Socket;
  /** When (ms since the epoch) it was opened. */
  openedAt: number;
  /** What the server sent on the connection. */
  received: () => string;
  /** When (ms since the epoch) the server closed it; undefined while open. */
  closedAt: () => number | undefined;
}

function slowBody(url: string): SlowBody {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress: ATTACKER });
  let received = '';
  let closedAt: number | undefined;
  const openedAt = Date.now();
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.once('close', () => {
    closedAt = Date.now();
  });
  socket.write(
    'POST /api/user/isauth HTTP/1.1\r\nHost: nudge.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
  return { socket, openedAt, received: () => received, closedAt: () => closedAt };
}

describe('the slow-body attack', () => {
  it("leaves an ordinary reader's calls fast while one address idles 520 half-sent bodies; the timeout closes them", async () => {
    const attack: SlowBody[] = [];
    // In waves, as a script would open them (and within the server's accept backlog).
    for (let i = 0; i < ATTACK; i += 100) {
      for (let j = i; j < Math.min(ATTACK, i + 100); j++) attack.push(slowBody(standalone.url));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refused = () => attack.filter((s) => s.received().startsWith('HTTP/1.1 429 '));
    /** What the attack's connections got so far, for a failure's message. */
    const tally = () => {
      const counts: Record<string, number> = {};
      for (const s of attack) {
        const key = `${s.received().slice(0, 12) || 'nothing'}${s.closedAt() === undefined ? '' : ', closed'}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return JSON.stringify(counts);
    };
    await vi.waitFor(
      () =>
        expect(refused().length, `the requests past the bound refused: ${tally()}`).toBe(ATTACK - PER_CLIENT),
      { timeout: REQUEST_TIMEOUT_MS - 2_000, interval: 25 },
    );
    // Refused at once, and their connections closed.
    await vi.waitFor(
      () =>
        expect(
          refused().every((s) => s.closedAt() !== undefined),
          `refused connections closed: ${tally()}`,
        ).toBe(true),
      { timeout: 5_000, interval: 25 },
    );
    const held = attack.filter((s) => !s.received());
    expect(held).toHaveLength(PER_CLIENT);

    // The reader, while the attacker holds its share (and more than the in-flight limit).
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      for (const [method, path, body] of [
        ['POST', '/api/user/isauth', { token: reader }],
        ['POST', '/api/logs/getallpost?page=1&limit=5', { subscription: false }],
      ] as const) {
        const t0 = performance.now();
        const reply = await call(method, path, body, reader);
        times.push(performance.now() - t0);
        expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
      }
    }
    expect(held.every((s) => s.closedAt() === undefined)).toBe(true);
    times.sort((a, b) => a - b);
    console.log(
      `slow bodies: ${ATTACK} from ${ATTACKER}, ${refused().length} refused at once, ${held.length} held; reader calls median ${times[10]?.toFixed(1)} ms, slowest ${times.at(-1)?.toFixed(1)} ms`,
    );
    expect(times[10]).toBeLessThan(200);
    expect(times.at(-1)).toBeLessThan(1_000);

    // The request timeout ends the held ones with 408 and closes them.
    await vi.waitFor(
      () =>
        expect(
          held.every((s) => s.closedAt() !== undefined),
          `held connections closed by the timeout: ${tally()}`,
        ).toBe(true),
      { timeout: REQUEST_TIMEOUT_MS + 5_000, interval: 25 },
    );
    for (const s of held) {
      expect(s.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect((s.closedAt() as number) - s.openedAt).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    }
    // The attacker's address is served again once its requests are gone; the process never faltered.
    expect((await call('POST', '/api/user/isauth', { token: reader })).status).toBe(200);
    expect(standalone.alive()).toBe(true);
    expect(standalone.stderr()).not.toMatch(/uncaught|ERR_HTTP_HEADERS_SENT/i);
    await ok('GET', '/api/topic/getalltopics');
  }, 120_000);
});
