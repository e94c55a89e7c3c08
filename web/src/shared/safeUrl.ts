/**
 * A URL from the remote settings, made safe to put in an href or src: a same-site path ('/x', not '//host'),
 * or an absolute http(s) URL. Anything else (javascript:, data:, garbage) gives null.
 */
export function safeUrl(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const value = raw.trim();
  if (!value) return null;
  if (value.startsWith('/')) return value.startsWith('//') || value.startsWith('/\\') ? null : value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** True for a same-site path the router can handle. */
export const isAppPath = (url: string): boolean => url.startsWith('/') && !url.startsWith('//');

/** An image address from the settings or a post: what safeUrl accepts, plus inline data:image/… URLs (uploads). */
export function safeImageUrl(raw: string | undefined | null): string | null {
  const value = raw?.trim() ?? '';
  if (/^data:image\/(png|jpe?g|gif|webp|svg\+xml|avif)[;,]/i.test(value)) return value;
  return safeUrl(value);
}
