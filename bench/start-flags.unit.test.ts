import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { standaloneNodeFlags } from '../deploy/standalone/src/node-flags';

describe('the node flags of npm start (the bench and the soak start the standalone process with them)', () => {
  it('are read from the start script: the words between node and the script (or --import)', () => {
    expect(standaloneNodeFlags('node --a=1 --b deploy/standalone/dist/main.mjs --c')).toEqual([
      '--a=1',
      '--b',
    ]);
    expect(standaloneNodeFlags('node --a=1 --b --import tsx deploy/standalone/src/main.ts')).toEqual([
      '--a=1',
      '--b',
    ]);
    expect(standaloneNodeFlags('tsx deploy/standalone/src/main.ts')).toEqual([]);
  });

  it('are accepted by this node as they stand in package.json (node refuses a misspelt flag)', () => {
    const flags = standaloneNodeFlags();
    expect(flags).toContain('--heap-growing-percent=50');
    const run = spawnSync(process.execPath, [...flags, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
  });
});
