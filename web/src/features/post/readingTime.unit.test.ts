import { describe, expect, it } from 'vitest';
import { readingTime } from './readingTime';

describe('reading time', () => {
  it('counts words at 200 a minute, at least a minute', () => {
    expect(readingTime('Breathe in, breathe out.')).toBe('1 min read');
    expect(readingTime(Array.from({ length: 600 }, () => 'word').join(' '))).toBe('3 min read');
    expect(readingTime('<p>tags</p> <b>are</b> not words')).toBe('1 min read');
  });
  it('gives nothing without text', () => {
    expect(readingTime(undefined)).toBeNull();
    expect(readingTime('   ')).toBeNull();
  });
});
