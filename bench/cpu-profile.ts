import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface CpuProfile {
  /** Stops the profile and writes it to `file` (its folder is created). */
  stop(file: string): Promise<void>;
}

/** `<dir>/<name>.cpuprofile`, the name reduced to letters, digits, dots and dashes. */
export const profilePath = (dir: string, name: string): string =>
  join(dir, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);

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
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(profile));
    },
  };
}
