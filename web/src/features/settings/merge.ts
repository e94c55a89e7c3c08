import type { Level, LogoutRedirect, SiteSettings } from './types';

type Key = keyof SiteSettings;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Colours and fonts end up in CSS custom properties: refuse anything that could close the declaration. */
const CSS_VALUE_KEYS = new Set<Key>([
  'backgroundcolor',
  'defaultfontcolor',
  'defaultfont',
  'headingcolor',
  'headingfont',
  'paragraphcolor',
  'paragraphfont',
  'buttoncolor',
  'buttonfontcolor',
  'inputbordercolor',
]);
const SAFE_CSS_VALUE = /^[^;{}<>\\]{1,120}$/;

function asString(key: Key, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  if (CSS_VALUE_KEYS.has(key) && !SAFE_CSS_VALUE.test(trimmed)) return undefined;
  return trimmed;
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function asLogoutRedirect(value: unknown): LogoutRedirect | undefined {
  return value === 'feed' || value === 'login' ? value : undefined;
}

/** A list of valid levels sorted by count; undefined when the value is not a list at all. */
export function asLevels(value: unknown): Level[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: Level[] = [];
  for (const entry of value) {
    if (!isRecord(entry)) continue;
    const title = typeof entry.title === 'string' ? entry.title.trim() : '';
    const count = typeof entry.count === 'string' ? Number(entry.count) : entry.count;
    if (!title || typeof count !== 'number' || !Number.isFinite(count) || count < 0) continue;
    levels.push({ title, count });
  }
  return levels.sort((a, b) => a.count - b.count);
}

/**
 * The remote settings object merged over the defaults. Unknown keys are ignored; a value of the wrong type, or an
 * empty string, keeps the default. An explicit list of levels is kept even when empty (the levels widget then says
 * 'No levels data available').
 */
export function mergeSettings(defaults: SiteSettings, remote: unknown): SiteSettings {
  if (!isRecord(remote)) return defaults;
  const merged: SiteSettings = { ...defaults };
  const target = merged as unknown as Record<Key, unknown>;
  for (const key of Object.keys(defaults) as Key[]) {
    const value = remote[key];
    if (value === undefined || value === null) continue;
    const fallback = defaults[key];
    let resolved: unknown;
    if (key === 'levels') resolved = asLevels(value);
    else if (key === 'logoutredirect') resolved = asLogoutRedirect(value);
    else if (typeof fallback === 'boolean') resolved = asBoolean(value);
    else resolved = asString(key, value);
    if (resolved !== undefined) target[key] = resolved;
  }
  return merged;
}
