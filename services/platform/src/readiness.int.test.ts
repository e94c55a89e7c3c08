import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { readinessHandler } from './container';
import { closeServer, listen } from './runtime';

describe('a service process /readyz', () => {
  const servers: Awaited<ReturnType<typeof listen>>[] = [];
  afterAll(async () => {
    for (const { server } of servers) await closeServer(server);
  });
  const serve = async (
    required: Record<string, () => Promise<unknown>>,
    degraded?: Record<string, () => Promise<unknown>>,
    detail?: () => Promise<Record<string, unknown>>,
  ) => {
    const app = express();
    app.get('/readyz', readinessHandler(required, degraded, detail));
    const running = await listen(app, 0);
    servers.push(running);
    const res = await fetch(`${running.url}/readyz`);
    return { status: res.status, body: await res.json() };
  };

  it('is 200 when the store and the bus answer', async () => {
    expect(await serve({ content: async () => {} }, { bus: async () => {} })).toEqual({
      status: 200,
      body: { status: true, checks: { content: true, bus: true } },
    });
  });

  it('is 503 naming the store that does not answer', async () => {
    const down = await serve(
      {
        content: async () => {
          throw new Error('the store is not reachable');
        },
      },
      { bus: async () => {} },
    );
    expect(down).toEqual({ status: 503, body: { status: false, checks: { content: false, bus: true } } });
  });

  it('stays 200 while Kafka or ClickHouse is down, naming what is degraded', async () => {
    const blip = async () => {
      throw new Error('not reachable');
    };
    const degraded = await serve({ reporting: async () => {} }, { bus: blip, analytics: blip });
    expect(degraded).toEqual({
      status: 200,
      body: {
        status: true,
        checks: { reporting: true, bus: false, analytics: false },
        degraded: ['bus', 'analytics'],
      },
    });
  });

  it('shows the service detail (records its pipelines set aside) without failing on it', async () => {
    const setAside = { total: 2, sources: { bus: 0, web: 2, backfill: 0 } };
    expect(await serve({ reporting: async () => {} }, {}, async () => ({ setAside }))).toEqual({
      status: 200,
      body: { status: true, checks: { reporting: true }, detail: { setAside } },
    });
    const failing = await serve({ reporting: async () => {} }, {}, async () => {
      throw new Error('store down');
    });
    expect(failing).toEqual({
      status: 200,
      body: { status: true, checks: { reporting: true }, detail: { error: 'unavailable' } },
    });
  });
});
