import { describe, expect, it } from 'vitest';
import { badRequest, CONFLICT_MESSAGE, ConcurrencyError } from '../errors';
import { retryOnConflict } from './retry';

describe('retryOnConflict', () => {
  it('decides again after a lost race, until the command gets through', async () => {
    let runs = 0;
    const result = await retryOnConflict(async () => {
      runs += 1;
      if (runs < 3) throw new ConcurrencyError('user-abc', 4);
      return 'recorded';
    });
    expect(result).toBe('recorded');
    expect(runs).toBe(3);
  });

  it('gives up after its attempts with a 409 that names no stream or version', async () => {
    let runs = 0;
    const failed = await retryOnConflict(async () => {
      runs += 1;
      throw new ConcurrencyError('user-65f0c2aa', 7);
    }, 3).catch((err: unknown) => err as ConcurrencyError);
    expect(runs).toBe(3);
    expect(failed.httpStatus).toBe(409);
    expect(failed.message).toBe(CONFLICT_MESSAGE);
    expect(failed.message).not.toMatch(/user-65f0c2aa|7/);
    expect([failed.stream, failed.expectedVersion]).toEqual(['user-65f0c2aa', 7]);
  });

  it('never repeats a command that was refused for another reason', async () => {
    let runs = 0;
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw badRequest('No');
      }),
    ).rejects.toThrow('No');
    expect(runs).toBe(1);
  });
});
