import { describe, expect, it } from 'vitest';
import { historyEntries } from './historyResponse';

describe('history response', () => {
  it('keeps entries with a type and a readable date', () => {
    expect(
      historyEntries([
        { type: 1, status: true, createdAt: '2025-03-01T10:00:00.000Z', templateid: 'x' },
        { type: '2', createdAt: 1740823200000 },
        { type: 1, createdAt: 'not a date' },
        { type: 'x', createdAt: '2025-03-01T10:00:00.000Z' },
        { type: 1 },
        null,
        'junk',
        { type: 0, status: 'yes', createdAt: '2025-03-02T10:00:00.000Z' },
      ]),
    ).toEqual([
      { type: 1, status: true, createdAt: '2025-03-01T10:00:00.000Z' },
      { type: 2, createdAt: 1740823200000 },
      { type: 0, createdAt: '2025-03-02T10:00:00.000Z' },
    ]);
  });

  it('reads a missing history as none', () => {
    expect(historyEntries(undefined)).toEqual([]);
    expect(historyEntries({})).toEqual([]);
  });
});
