/**
 * The subject line of a send (Thompson sampling on open rate): each Active subject's open rate is drawn from
 * Beta(1 + opens, 1 + sent - opens) and the highest draw wins, so a subject that opens better wins more often
 * while an untried or unlucky one still gets drawn now and then. On top, with probability `explore` the choice is
 * uniform (counts from reporting lag behind, and a new subject should be tried soon). Pure: the random source is given.
 */
export interface SubjectStats {
  emails_sent: number;
  emails_open: number;
}

export function chooseSubject<S extends { id: string }>(
  subjects: readonly S[],
  stats: Readonly<Record<string, SubjectStats>> | null,
  random: () => number = Math.random,
  explore = 0.1,
): S | null {
  if (subjects.length === 0) return null;
  if (!stats || random() < explore) return subjects[Math.floor(random() * subjects.length)] ?? null;
  let best: S | null = null;
  let bestDraw = -1;
  for (const s of subjects) {
    const st = stats[s.id];
    const sent = Math.max(0, st?.emails_sent ?? 0);
    const opens = Math.min(sent, Math.max(0, st?.emails_open ?? 0));
    const draw = sampleBeta(1 + opens, 1 + sent - opens, random);
    if (draw > bestDraw) {
      best = s;
      bestDraw = draw;
    }
  }
  return best;
}

/** Beta(a, b) from two Gamma draws. */
export function sampleBeta(a: number, b: number, random: () => number): number {
  const x = sampleGamma(a, random);
  const y = sampleGamma(b, random);
  return x + y === 0 ? 0.5 : x / (x + y);
}

/** Gamma(shape, 1), Marsaglia and Tsang (shape >= 1 here). */
function sampleGamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(Math.max(u, Number.MIN_VALUE)) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

function normal(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
