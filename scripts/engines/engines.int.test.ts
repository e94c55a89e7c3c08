// The engine layer itself, as the fault tests use it: a crash (kill -9) and a restart keep what the engine had
// acknowledged; a clean stop deletes its folder; an engine never outlives the process that started it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { cannotInstall, isInstalled } from './install';
import { startKafka } from './kafka';
import { engineDir } from './process';
import { startTemporal } from './temporal';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Why the engine cannot run here (not installed, and not installable), or undefined. Under CI=true: a failure. */
async function missing(name: 'kafka' | 'temporal'): Promise<string | undefined> {
  const why = isInstalled(name) ? undefined : await cannotInstall(name);
  if (why && process.env.CI === 'true') throw new Error(`${name} is required under CI=true: ${why}`);
  if (why) console.log(`[integration] engines / ${name}: skipped: ${why}`);
  return why;
}

const portAnswers = (address: string) =>
  new Promise<boolean>((done) => {
    const [host, port] = address.split(':');
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

describe.skipIf(await missing('kafka'))('Kafka broker (scripts/engines/kafka.ts)', () => {
  it('keeps an acknowledged message through kill -9 and a restart; a clean stop deletes its folder', async () => {
    const broker = await startKafka();
    const kafka = new Kafka({
      clientId: 'engines-test',
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
    });
    try {
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({
        topic: 'engines.crash',
        acks: -1,
        messages: [{ key: 'k', value: 'before the crash' }],
      });
      await producer.disconnect();

      await broker.kill();
      expect(await portAnswers(broker.brokers[0] as string)).toBe(false);
      await broker.restart();

      const consumer = kafka.consumer({ groupId: 'engines-test' });
      await consumer.connect();
      await consumer.subscribe({ topics: ['engines.crash'], fromBeginning: true });
      const value = await new Promise<string>((done) => {
        consumer.run({ eachMessage: async ({ message }) => done(message.value?.toString() ?? '') });
      });
      await consumer.disconnect();
      expect(value).toBe('before the crash');
    } finally {
      await broker.stop();
    }
    expect(existsSync(broker.dir)).toBe(false);
  }, 180_000);
});

describe.skipIf(await missing('temporal'))('Temporal dev server (scripts/engines/temporal.ts)', () => {
  it('keeps a running workflow through kill -9 and a restart', async () => {
    const { Client, Connection } = await import('@temporalio/client');
    const server = await startTemporal();
    try {
      const connect = () => Connection.connect({ address: server.address });
      let connection = await connect();
      // No worker: the workflow stays running, waiting for one, in the server's database.
      await new Client({ connection }).workflow.start('noSuchWorkflow', {
        taskQueue: 'engines-test',
        workflowId: 'survives-a-crash',
      });
      await connection.close();

      await server.kill();
      expect(await portAnswers(server.address)).toBe(false);
      await server.restart();

      connection = await connect();
      const described = await new Client({ connection }).workflow.getHandle('survives-a-crash').describe();
      await connection.close();
      expect(described.status.name).toBe('RUNNING');
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
  }, 120_000);

  it('dies with the process that started it, even one killed with SIGKILL', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "import('./scripts/engines/temporal.ts').then(async (m) => { const s = await m.startTemporal(); console.log(s.address, s.dir) })",
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [address, dir] = await new Promise<string[]>((done, fail) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = /^(127\.0\.0\.1:\d+) (\S+)\n/.exec(out);
        if (line) done([line[1] as string, line[2] as string]);
      });
      child.once('exit', (code) =>
        fail(new Error(`the starting process exited (${code}) before the server answered`)),
      );
    });
    expect(await portAnswers(address as string)).toBe(true);
    child.kill('SIGKILL');
    const deadline = Date.now() + 15_000;
    while ((await portAnswers(address as string)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(await portAnswers(address as string)).toBe(false);
    await rm(dir as string, { recursive: true, force: true });
  }, 60_000);
});

// The folder of a run killed before it stopped its engines is deleted by the next start (engineDir).
it('deletes the data folder of an engine whose owner is gone at the next start', async () => {
  const stale = await engineDir('nudge-engines-test-');
  await writeFile(join(stale, 'owner.pid'), '999999999'); // no such process
  const fresh = await engineDir('nudge-engines-test-');
  expect(existsSync(stale)).toBe(false);
  expect(existsSync(fresh)).toBe(true);
  await rm(fresh, { recursive: true, force: true });
});
