/** Today's post rules (reader.md §7 gettodaypost): pure, the clock and the time zone are given. */

/** The calendar day ('YYYY-MM-DD') of `now` in an IANA time zone (UTC when the zone is unknown). */
export function dayKey(now: Date, timeZone: string): string {
  const format = (tz: string) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

/** The `n` days before `day`, nearest first. */
export function previousDays(day: string, n: number): string[] {
  const base = Date.parse(`${day}T00:00:00.000Z`);
  return Array.from({ length: n }, (_, i) =>
    new Date(base - (i + 1) * 86_400_000).toISOString().slice(0, 10),
  );
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
