import { describe, expect, it } from 'vitest';
import { cardPreview, preview, recommendationBody, recommendationHeading } from './preview';

const letters = (n: number) => 'a'.repeat(n);

describe('preview', () => {
  it('keeps a text of at most max characters whole, without "..."', () => {
    expect(preview(letters(149), 150)).toBe(letters(149));
    expect(preview(letters(150), 150)).toBe(letters(150));
    expect(preview('Short body', 150)).toBe('Short body');
  });

  it('cuts a longer text to max characters followed by "..."', () => {
    expect(preview(letters(151), 150)).toBe(`${letters(150)}...`);
    expect(preview(letters(1000), 150)).toBe(`${letters(150)}...`);
  });

  it('gives an empty string for a missing text', () => {
    expect(preview('', 150)).toBe('');
    expect(preview(null, 150)).toBe('');
    expect(preview(undefined, 150)).toBe('');
  });

  it('counts an emoji as one character and never cuts it in half', () => {
    // 149 letters then an emoji (two UTF-16 units) ends exactly at 150 characters.
    expect(preview(`${letters(149)}😀`, 150)).toBe(`${letters(149)}😀`);
    expect(preview(`${letters(149)}😀b`, 150)).toBe(`${letters(149)}😀...`);
    expect(preview(`${letters(150)}😀`, 150)).toBe(`${letters(150)}...`);
    const cut = preview(`${letters(149)}😀😀`, 150);
    expect(cut).toBe(`${letters(149)}😀...`);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/); // no lone surrogate
  });

  it('keeps joined emoji (a family, a flag) whole at the cut', () => {
    const family = '👨‍👩‍👧';
    expect(preview(`${letters(149)}${family}x`, 150)).toBe(`${letters(149)}${family}...`);
    expect(preview(`${letters(149)}🇮🇳x`, 150)).toBe(`${letters(149)}🇮🇳...`);
  });

  it('drops the whitespace just before the cut', () => {
    expect(preview('Hello world and more', 6)).toBe('Hello...');
    expect(preview('Hello\n\nworld', 7)).toBe('Hello...');
  });

  it('cuts at a word boundary, never mid-word', () => {
    expect(preview('Rest after dinner and walk', 13)).toBe('Rest after...');
    expect(preview('Rest after dinner, then walk', 19)).toBe('Rest after dinner...');
    // One word longer than half the room is cut, rather than showing almost nothing.
    expect(preview('Go supercalifragilistic', 10)).toBe('Go superca...');
  });

  it("adds the '...' once to a text the server already cut", () => {
    expect(preview('A premium preview the server cut...', 150)).toBe('A premium preview the server cut...');
    expect(preview(`${'word '.repeat(29)}end...`, 150)).toBe(`${'word '.repeat(29)}end...`);
    expect(preview(`${'word '.repeat(40)}...`, 150)).not.toMatch(/\.{4}/);
    expect(preview(`${'word '.repeat(40)}...`, 150)).toMatch(/word\.\.\.$/);
  });
});

describe('card and recommendation previews', () => {
  it('cut the card body at 150 characters', () => {
    expect(cardPreview(letters(150))).toBe(letters(150));
    expect(cardPreview(letters(151))).toBe(`${letters(150)}...`);
  });

  it('cut the recommendation heading at 50 and body at 150 characters', () => {
    expect(recommendationHeading(letters(50))).toBe(letters(50));
    expect(recommendationHeading(letters(51))).toBe(`${letters(50)}...`);
    expect(recommendationBody(letters(150))).toBe(letters(150));
    expect(recommendationBody(letters(151))).toBe(`${letters(150)}...`);
  });
});
