// Resident memory of a process and every process below it (Linux /proc): the bench process hosts the standalone
// process, whose services may run parts of themselves in child processes (an engine, a browser).
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessMemory {
  pid: number;
  /** The parent's pid (0 for the root of the tree). */
  ppid: number;
  /** The command line, shortened. */
  command: string;
  rssMb: number;
  /** Of rssMb: anonymous memory (heaps, native allocations) and file-backed pages (code, mapped libraries). */
  anonMb: number;
  fileMb: number;
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

async function describeProcess(pid: number): Promise<ProcessMemory | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s+(\\S+)`, 'm').exec(status)?.[1];
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''))
      .split('\0')
      .filter(Boolean)
      .join(' ');
    const command = cmdline || `[${field('Name') ?? '?'}]`;
    return {
      pid,
      ppid: Number(field('PPid') ?? 0),
      command: command.length > 90 ? `${command.slice(0, 87)}...` : command,
      // Zombies and kernel threads have no VmRSS.
      rssMb: mb(Number(field('VmRSS') ?? 0)),
      anonMb: mb(Number(field('RssAnon') ?? 0)),
      fileMb: mb(Number(field('RssFile') ?? 0)),
    };
  } catch {
    return null; // it ended while we looked
  }
}

/**
 * `root` and all its descendants, parents before children; empty where /proc is not there (not Linux). RSS counts
 * pages a process shares with another (libraries) in both, so the total is an upper bound.
 */
export async function processTree(root = process.pid): Promise<ProcessMemory[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[]))
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
  const all = (await Promise.all(pids.map(describeProcess))).filter((p): p is ProcessMemory => p !== null);
  const children = new Map<number, ProcessMemory[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const self = all.find((p) => p.pid === root);
  if (!self) return [];
  const tree: ProcessMemory[] = [];
  const visit = (p: ProcessMemory) => {
    tree.push(p);
    for (const c of children.get(p.pid) ?? []) visit(c);
  };
  visit({ ...self, ppid: 0 });
  return tree;
}

export const totalRssMb = (tree: ProcessMemory[]) =>
  Math.round(tree.reduce((n, p) => n + p.rssMb, 0) * 10) / 10;

/** A markdown table: one row per process (indented by depth) and the total. */
export function processTable(tree: ProcessMemory[], title: string): string {
  const depth = new Map<number, number>();
  const rows = tree.map((p) => {
    const d = p.ppid === 0 ? 0 : (depth.get(p.ppid) ?? 0) + 1;
    depth.set(p.pid, d);
    return `| ${'  '.repeat(d)}${p.pid} | ${p.command.replaceAll('|', '\\|')} | ${p.rssMb} | ${p.anonMb} | ${p.fileMb} |`;
  });
  return `| ${title} | command | RSS MB | anonymous | file-backed |\n|---|---|---:|---:|---:|\n${rows.join('\n')}\n| **total (${tree.length} processes)** | | **${totalRssMb(tree)}** | | |`;
}
