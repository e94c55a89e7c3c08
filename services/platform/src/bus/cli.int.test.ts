import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLog, waitFor } from '../events/testing';
import type { BusMessage } from '../events/types';
import { createDocumentStore } from '../store';
import { createInProcessBus } from './in-process';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const cli = join(root, 'services/platform/src/bus/cli.ts');
const tsx = join(root, 'node_modules/.bin/tsx');
const run = promisify(execFile);

let dataDir = '';
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The embedded bus exactly where openEventBus puts it (DATA_DIR/bus). */
const openBus = async () => {
  const store = await createDocumentStore({ kind: 'embedded', dir: join(dataDir, 'bus'), dbName: 'bus' });
  const bus = createInProcessBus({ store, maxAttempts: 1, log: silentLog() });
  return {
    bus,
    close: async () => {
      await bus.close();
      await store.close();
    },
  };
};

const bus = (...args: string[]) =>
  run(tsx, [cli, ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, EVENT_BUS: 'inprocess', LOG_LEVEL: 'silent' },
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('npm run bus (embedded bus)', () => {
  it('lists and replays dead letters, and refuses while npm start holds the data directory', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'nudge-bus-cli-'));
    const message: BusMessage = {
      topic: 'nudge.cli.events',
      key: 'k',
      value: '{"n":1}',
      headers: { a: 'b' },
    };
    const first = await openBus();
    await first.bus.subscribe('g', [message.topic], async () => {
      throw new Error('broken handler (expected by the test)');
    });
    await first.bus.publish([message]);
    await waitFor(async () => (await first.bus.deadLetters('g')).length === 1, 5_000, 'the dead letter');
    await first.close();

    await writeFile(join(dataDir, 'standalone.pid'), String(process.pid)); // a live process holds it
    const refused = await bus('replay-dead-letters');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Nudge is running (pid ${process.pid})`);
    await rm(join(dataDir, 'standalone.pid'));

    const listed = await bus('dead-letters');
    expect(listed.stdout).toContain('broken handler (expected by the test)');
    expect(listed.stdout).toContain('1 dead letter(s) {"g":1}');
    expect((await bus('replay-dead-letters', '--group', 'other')).stdout).toContain('0 dead letter(s)');
    expect((await bus('replay-dead-letters', '--group', 'g')).stdout).toContain('1 dead letter(s) put back');

    const second = await openBus();
    const got: BusMessage[] = [];
    const otherGroup: BusMessage[] = [];
    await second.bus.subscribe('g', [message.topic], async (m) => void got.push(m));
    await second.bus.subscribe('h', [message.topic], async (m) => void otherGroup.push(m));
    const after: BusMessage = { ...message, value: '{"n":2}' };
    await second.bus.publish([after]); // after the replay in the log
    await waitFor(() => got.length >= 2 && otherGroup.length >= 2, 5_000, 'the replay and the next message');
    expect(got).toEqual([message, after]);
    expect(otherGroup).toEqual([message, after]); // the original only: the replay is g's
    expect(await second.bus.deadLetters()).toEqual([]);
    await second.close();
  }, 60_000);
});
