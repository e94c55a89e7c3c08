import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFileOutbox } from '@nudge/platform';
import { afterAll, describe, expect, it } from 'vitest';

// Crash in the middle of a slot: the standalone process sending a slot of 5,000 due readers is killed with
// SIGKILL; started again, it resumes the slot. Every due reader has exactly one e-mail in the outbox.

const COUNT = 5000;
const child = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'reminder-crash-child.ts');
let dataDir = '';
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function start(phase: string): { proc: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, CRASH_DATA_DIR: dataDir, PHASE: phase, COUNT: String(COUNT) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  const lines: string[] = [];
  proc.stdout?.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, lines, exited };
}

/** The outbox as stored (its files, read while the process may be writing them): reminder e-mails by send key. */
async function reminderMails() {
  const dir = join(dataDir, 'outbox');
  const docs = new Map<string, { to: string; idempotencyKey?: string }>();
  if (!existsSync(join(dir, 'index.bin'))) return docs;
  const outbox = await openFileOutbox(dir);
  try {
    for (const mail of await outbox.list(outbox.count(), 0)) {
      expect(mail.idempotencyKey === undefined || !docs.has(mail.idempotencyKey)).toBe(true);
      if (mail.idempotencyKey) docs.set(mail.idempotencyKey, mail);
    }
  } finally {
    await outbox.close();
  }
  return docs;
}

describe('a crash in the middle of a reminder slot', () => {
  it('SIGKILL mid-slot, restart: every due reader has exactly one e-mail', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'nudge-crash-'));
    const first = start('setup');
    // Seeding 5,000 readers through the API takes minutes on a shared machine.
    const deadline = Date.now() + 600_000;
    while (!first.lines.includes('READY')) {
      if (Date.now() > deadline) throw new Error('setup did not finish');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Let it send part of the slot, then kill it without warning.
    let sentBefore = 0;
    while (sentBefore < 1200) {
      if (Date.now() > deadline) throw new Error('the slot did not start sending');
      await new Promise((r) => setTimeout(r, 200));
      sentBefore = (await reminderMails()).size;
    }
    first.proc.kill('SIGKILL');
    await first.exited;
    sentBefore = (await reminderMails()).size;
    expect(sentBefore).toBeGreaterThan(0);
    expect(sentBefore).toBeLessThan(COUNT);

    const second = start('resume');
    expect(await second.exited).toBe(0);
    expect(second.lines.some((l) => l.startsWith('DONE'))).toBe(true);

    const perReader = new Map<string, number>();
    for (const mail of (await reminderMails()).values())
      perReader.set(mail.to, (perReader.get(mail.to) ?? 0) + 1);
    const crashReaders = [...perReader.keys()].filter((to) => to.startsWith('crash-'));
    expect(crashReaders).toHaveLength(COUNT);
    expect([...perReader.values()].every((n) => n === 1)).toBe(true);
    console.log(
      `[system] crash test: ${sentBefore} e-mails before SIGKILL, ${COUNT} readers with one e-mail each after the restart`,
    );
  }, 900_000);
});
