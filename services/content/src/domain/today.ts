/** Today's post rules (reader.md §7 gettodaypost): pure, the clock and the time zone are given. */
import { addDays } from '@nudge/contracts';

/** The `n` days before `day`, nearest first. */
export function previousDays(day: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => addDays(day, -(i + 1)));
}

/** A stable 32-bit hash (FNV-1a), so a pick is reproducible from (user, day). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The post of the day among `candidates` (ids of active posts): posts picked on the recent days are left out
 * while others exist. The choice is a hash of the seed over the ids in a fixed order, so it is spread over the
 * candidates and the same inputs give the same post.
 */
export function pickTodayPost(
  candidates: readonly string[],
  recentPicks: ReadonlySet<string>,
  seed: string,
): string | null {
  if (candidates.length === 0) return null;
  const fresh = candidates.filter((id) => !recentPicks.has(id));
  const pool = [...(fresh.length > 0 ? fresh : candidates)].sort();
  return pool[hash32(seed) % pool.length] ?? null;
}
