import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS, avatarFor, hashString } from './avatar';

/** WCAG relative luminance and contrast ratio against white. */
function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

describe('avatarFor', () => {
  it('uses the first letter of the e-mail, upper-cased', () => {
    expect(avatarFor('alice@example.com').initial).toBe('A');
    expect(avatarFor('  Bob@example.com ').initial).toBe('B');
    expect(avatarFor('_9lives@example.com').initial).toBe('9');
    expect(avatarFor('élodie@example.fr').initial).toBe('É');
    expect(avatarFor('').initial).toBe('?');
  });

  it('gives one e-mail always the same colour, whatever its case', () => {
    const a = avatarFor('alice@example.com');
    expect(avatarFor('ALICE@example.com').colour).toBe(a.colour);
    expect(AVATAR_COLOURS).toContain(a.colour);
  });

  it('spreads different e-mails over the palette', () => {
    const colours = new Set(Array.from({ length: 60 }, (_, i) => avatarFor(`user${i}@example.com`).colour));
    expect(colours.size).toBeGreaterThan(6);
  });

  it('keeps white initials readable on every colour (WCAG AA)', () => {
    for (const colour of AVATAR_COLOURS) expect(contrastWithWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });

  it('hashes stably', () => {
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc')).not.toBe(hashString('abd'));
  });
});
