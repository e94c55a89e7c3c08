/** Background colours for the e-mail avatar; each keeps white text at WCAG AA contrast (4.5:1 or more). */
export const AVATAR_COLOURS = [
  '#b91c1c',
  '#c2410c',
  '#a16207',
  '#15803d',
  '#0f766e',
  '#0369a1',
  '#1d4ed8',
  '#6d28d9',
  '#a21caf',
  '#be123c',
  '#4d7c0f',
  '#374151',
] as const;

/** FNV-1a: a small, stable string hash, so one e-mail always gets the same colour. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The avatar of an e-mail address: its first letter or digit, upper-cased, on a colour picked by the hash. */
export function avatarFor(email: string): { initial: string; colour: string } {
  const normalised = email.trim().toLowerCase();
  const first = normalised.match(/[\p{L}\p{N}]/u)?.[0];
  const colour = AVATAR_COLOURS[hashString(normalised) % AVATAR_COLOURS.length] ?? AVATAR_COLOURS[0];
  return { initial: first ? first.toUpperCase() : '?', colour };
}
