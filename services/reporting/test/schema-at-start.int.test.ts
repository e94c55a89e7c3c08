import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsStore, MIGRATIONS, migrate, openChdbStore, prepareSchema } from '../src/analytics';

// Against a ClickHouse server, the migrations are the migration step's (the setup Job, run once per release before
// the new pods): replicas starting together never run them at once, and a long copy never runs under a request's
// timeout in a pod a startup probe watches. No ClickHouse server runs here: chDB stands in, presented as a server.

let dir: string;
let chdb: AnalyticsStore;
const tables = async () =>
  (
    await chdb.query<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase()')
  ).map((t) => t.name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nudge-schema-start-'));
  chdb = await openChdbStore(dir);
}, 120_000);
afterAll(async () => {
  await chdb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("reporting's start and the ClickHouse schema", () => {
  it("against a server whose migrations are the setup step's: refuses a schema that is behind, naming what is pending, and changes nothing", {
    timeout: 240_000,
  }, async () => {
    const server: AnalyticsStore = { ...chdb, kind: 'clickhouse' };
    const last = MIGRATIONS.at(-1);
    const refused = await prepareSchema(server, { ANALYTICS_MIGRATE_AT_START: 'off' }).catch(
      (err: unknown) => err,
    );
    expect(String(refused)).toMatch(/the ClickHouse schema is behind this release/);
    expect(String(refused)).toContain(`${last?.version} (${last?.name})`);
    expect(String(refused)).toMatch(/setup Job/);
    expect(await tables()).toEqual([]);

    // Once the migration step ran, the start goes on.
    await migrate(chdb);
    const before = await tables();
    await expect(prepareSchema(server, { ANALYTICS_MIGRATE_AT_START: 'off' })).resolves.toBeUndefined();
    expect(await tables()).toEqual(before);
  });

  it('applies the migrations itself when told to, and always on its own chDB', {
    timeout: 240_000,
  }, async () => {
    for (const [kind, setting] of [
      ['clickhouse', 'on'],
      ['chdb', 'off'],
    ] as const) {
      const own = await openChdbStore(join(dir, `${kind}-${setting}`));
      try {
        await prepareSchema({ ...own, kind } as AnalyticsStore, { ANALYTICS_MIGRATE_AT_START: setting });
        expect(await migrate(own)).toEqual([]);
      } finally {
        await own.close();
      }
    }
  });
});
