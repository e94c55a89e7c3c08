import { describe, expect, it } from 'vitest';
import { chooseSubject, sampleBeta } from '../src/bandit';

/** A seeded generator (mulberry32), so the draws are reproducible. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const subjects = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
const tally = (pick: () => { id: string } | null, n = 3000) => {
  const counts: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const s = pick();
    if (s) counts[s.id] = (counts[s.id] ?? 0) + 1;
  }
  return counts;
};

describe('the subject line bandit (Thompson sampling)', () => {
  it('chooses nothing when the post has no Active subject', () => {
    expect(chooseSubject([], {}, seeded(1))).toBeNull();
  });

  it('sends the better-opening subject most of the time, and still tries the others', () => {
    const random = seeded(7);
    const stats = {
      a: { emails_sent: 1000, emails_open: 400 },
      b: { emails_sent: 1000, emails_open: 150 },
      c: { emails_sent: 1000, emails_open: 100 },
    };
    const counts = tally(() => chooseSubject(subjects, stats, random));
    expect(counts.a ?? 0).toBeGreaterThan(2600);
    expect(counts.b ?? 0).toBeGreaterThan(0); // exploration
    expect(counts.c ?? 0).toBeGreaterThan(0);
  });

  it('gives an untried subject a real chance next to a proven one', () => {
    const random = seeded(11);
    const stats = { a: { emails_sent: 500, emails_open: 150 } };
    const counts = tally(() => chooseSubject(subjects.slice(0, 2), stats, random));
    expect(counts.b ?? 0).toBeGreaterThan(300);
  });

  it('chooses uniformly when reporting gave no counts', () => {
    const random = seeded(3);
    const counts = tally(() => chooseSubject(subjects, null, random));
    for (const id of ['a', 'b', 'c']) expect(counts[id] ?? 0).toBeGreaterThan(850);
  });

  it('only ever returns one of the subjects it was given (paused ones are filtered before)', () => {
    const random = seeded(5);
    const stats = { paused: { emails_sent: 100, emails_open: 100 } };
    for (let i = 0; i < 200; i++)
      expect(['a', 'b', 'c']).toContain(chooseSubject(subjects, stats, random)?.id);
  });

  it('draws Beta values with the right mean', () => {
    const random = seeded(9);
    let sum = 0;
    for (let i = 0; i < 4000; i++) sum += sampleBeta(31, 71, random);
    expect(sum / 4000).toBeCloseTo(31 / 102, 2);
  });
});
