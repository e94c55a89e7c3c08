import { ADVERSARIAL_BODIES, growth, LINEAR_GROWTH_LIMIT } from '@nudge/contracts/testing';
import { describe, expect, it } from 'vitest';
import { readingTime } from '../features/post/readingTime';
import { bodyParagraphs, plainText } from './bodyText';

describe('post bodies as the web reads them', () => {
  it('reads blocks as paragraphs, <br> as a line break, and leaves a lone < as text', () => {
    expect(
      bodyParagraphs('<p>Hello <b>you</b></p><p>A &amp; B<br/>next</p><DIV class="x">Last</DIV>'),
    ).toEqual(['Hello you', 'A & B\nnext', 'Last']);
    expect(plainText('a < b, <3 <!-- note --> done')).toBe('a < b, <3 done');
  });

  it.each(Object.entries(ADVERSARIAL_BODIES))('stays linear in the body: %s', (_, make) => {
    expect(growth(plainText, make)).toBeLessThan(LINEAR_GROWTH_LIMIT);
    expect(growth(bodyParagraphs, make)).toBeLessThan(LINEAR_GROWTH_LIMIT);
    expect(growth(readingTime, make)).toBeLessThan(LINEAR_GROWTH_LIMIT);
  });
});
