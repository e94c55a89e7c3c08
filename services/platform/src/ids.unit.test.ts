import { describe, expect, it } from 'vitest';
import { isId, newId, newIds, randomToken } from './ids';

describe('ids and random tokens', () => {
  it('newId: 24 hex digits, the seconds of its instant first, never twice (across many draws of random bytes)', () => {
    const at = new Date('2026-11-24T08:00:00.000Z');
    const seconds = Math.floor(at.getTime() / 1000).toString(16);
    const ids = Array.from({ length: 5_000 }, () => newId(at));
    for (const id of ids) {
      expect(isId(id)).toBe(true);
      expect(id.slice(0, 8)).toBe(seconds);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(8))).size).toBe(ids.length);
    expect(newIds(3, at).every((id) => isId(id) && id.startsWith(seconds))).toBe(true);
  });

  it('randomToken: the asked number of random bytes, base64url, never twice, however large', () => {
    const tokens = Array.from({ length: 3_000 }, (_, i) => randomToken(i % 2 === 0 ? 12 : 24));
    for (const [i, token] of tokens.entries()) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(i % 2 === 0 ? 12 : 24);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(Buffer.from(randomToken(10_000), 'base64url')).toHaveLength(10_000);
    expect(Buffer.from(randomToken(), 'base64url')).toHaveLength(24);
  });
});
