import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CpuProfile {
  /** Stops the profile and writes it to `<dir>/<name>.cpuprofile`; returns the file. */
  stop(dir: string, name: string): Promise<string>;
}

/**
 * Profiles this process's main thread (node:inspector) until stop(): open the file in Chrome's DevTools, or
 * `npx tsx bench/prof-top.ts <file>` for the top frames.
 */
export async function startCpuProfile(): Promise<CpuProfile> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(dir, name) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);
      await writeFile(file, JSON.stringify(profile));
      return file;
    },
  };
}
