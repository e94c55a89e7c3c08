import { describe, expect, it } from 'vitest';
import {
  addSubject,
  addTag,
  exportRangeError,
  NOTIFICATION_TIMES,
  parseIdList,
  parseSubjectLines,
  promptError,
  putLevel,
  removeLevel,
  splitEmails,
  useSelectedSubjects,
} from './rules';

describe('admin form rules', () => {
  it('checks the user export range with the section 5 messages', () => {
    expect(exportRangeError('1', '', 50)).toBe('Please enter To value');
    expect(exportRangeError('30', '20', 50)).toBe('From value should be less than To value');
    expect(exportRangeError('1', '60', 50)).toBe('From value should be less than To value');
    expect(exportRangeError('1', '10002', 20_000)).toBe('Difference should be less than 10000');
    expect(exportRangeError('1', '10001', 20_000)).toBeNull();
  });

  it('offers notification times every 15 minutes and splits e-mails on spaces', () => {
    expect(NOTIFICATION_TIMES).toHaveLength(96);
    expect(NOTIFICATION_TIMES[0]).toBe('00:00');
    expect(NOTIFICATION_TIMES[33]).toBe('08:15');
    expect(NOTIFICATION_TIMES.at(-1)).toBe('23:45');
    expect(splitEmails(' a@x.com  b@y.com\n')).toEqual(['a@x.com', 'b@y.com']);
  });

  it('adds subjects and tags only when non-blank and new', () => {
    const make = (title: string) => ({ title });
    expect(addSubject([{ title: 'A' }], ' A ', make)).toEqual([{ title: 'A' }]);
    expect(addSubject([{ title: 'A' }], '  ', make)).toEqual([{ title: 'A' }]);
    expect(addSubject([{ title: 'A' }], 'B', make)).toEqual([{ title: 'A' }, { title: 'B' }]);
    expect(addTag(['calm'], 'calm')).toEqual(['calm']);
    expect(addTag(['calm'], ' mood ')).toEqual(['calm', 'mood']);
  });

  it('cleans comma-separated id lists', () => {
    expect(parseIdList(' a, b,,a , c ')).toEqual(['a', 'b', 'c']);
  });

  it('limits the AI prompt and reads generated subject lines', () => {
    expect(promptError('x'.repeat(5000))).toBeNull();
    expect(promptError('x'.repeat(5001))).toBe('Prompt must be 5000 characters or less');
    expect(parseSubjectLines('1. "Breathe first"\n- Slow down\n\n')).toEqual(['Breathe first', 'Slow down']);
  });

  it('uses selected generated subjects with the section 5 messages', () => {
    expect(useSelectedSubjects([], ['A'])).toEqual({
      ok: false,
      message: 'Please select at least one subject line',
    });
    expect(useSelectedSubjects(['A'], ['A'])).toEqual({
      ok: false,
      message: 'All selected subjects already exist...',
    });
    expect(useSelectedSubjects([' '], [])).toEqual({ ok: false, message: 'No subjects to use' });
    expect(useSelectedSubjects(['A', 'B'], ['A'])).toEqual({ ok: true, subjects: ['B'], duplicates: ['A'] });
  });

  it('keeps levels sorted, unique by count, and never empty', () => {
    const levels = [
      { title: 'Beginner', count: 0 },
      { title: 'Advanced', count: 40 },
    ];
    expect(putLevel(levels, { title: 'Intermediate', count: '20' })).toEqual({
      ok: true,
      levels: [
        { title: 'Beginner', count: 0 },
        { title: 'Intermediate', count: 20 },
        { title: 'Advanced', count: 40 },
      ],
    });
    expect(putLevel(levels, { title: 'Again', count: '40' })).toEqual({
      ok: false,
      message: 'A level with this count already exists!',
    });
    expect(putLevel(levels, { title: 'Advanced+', count: '40' }, 1).ok).toBe(true);
    expect(putLevel(levels, { title: 'Neg', count: '-1' }).ok).toBe(false);
    expect(putLevel(levels, { title: ' ', count: '5' }).ok).toBe(false);
    expect(removeLevel([{ title: 'Only', count: 0 }], 0)).toEqual({
      ok: false,
      message: 'You must have at least one level!',
    });
  });
});
