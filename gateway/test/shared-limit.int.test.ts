/**
 * Two gateway replicas on one store share the rate limit (the count is the cluster's, not each pod's).
 * Embedded store here (one store object for both, as one MongoDB database would be for two pods).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmbeddedStore, type DocumentStore } from '@nudge/platform';
import express, { type Express } from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../src';

const servers: Server[] = [];
const stores: DocumentStore[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const store of stores.splice(0)) await store.close();
});

async function start(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const log = pino({ level: 'silent' });

async function twoGateways(limit: number, shared: boolean) {
  // The window is a fixed minute: keep a test's requests inside one.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoMinute));
  const upstream = express();
  upstream.use((_req, res) => {
    res.json({ status: true });
  });
  const auth = await start(upstream);
  const store = createEmbeddedStore();
  stores.push(store);
  const gateway = () =>
    start(
      createGateway({
        services: { auth },
        rateLimitPerMinute: limit,
        ...(shared ? { rateLimitStore: store } : {}),
        log,
      }),
    );
  return [await gateway(), await gateway()] as const;
}

/** Requests alternating between the two gateways, from one client; the statuses in order. */
async function alternate(gateways: readonly string[], count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${gateways[i % 2]}/api/user/auth`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    statuses.push(res.status);
    await res.arrayBuffer();
  }
  return statuses;
}

describe('the gateway rate limit across replicas', () => {
  it('two gateways on one store: the client gets the limit once, not once per gateway', async () => {
    const gateways = await twoGateways(5, true);
    const statuses = await alternate(gateways, 8);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // The refusal is the gateway's clear 429 on either replica.
    const res = await fetch(`${gateways[1]}/api/user/auth`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ status: false, message: 'Too many requests, please try again later' });
    expect(res.headers.get('ratelimit')).toMatch(/remaining=0/);
  });

  it('a concurrent burst through both gateways: exactly the limit gets through (the count is atomic)', async () => {
    const gateways = await twoGateways(5, true);
    const statuses = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const res = await fetch(`${gateways[i % 2]}/api/user/auth`, { method: 'POST', body: '{}' });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
  });

  it('without a shared store each gateway counts on its own (what the store fixes)', async () => {
    const gateways = await twoGateways(5, false);
    expect(await alternate(gateways, 10)).toEqual(Array(10).fill(200));
  });
});
