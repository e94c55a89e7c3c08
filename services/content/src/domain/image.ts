/** Image upload rules (ours; the spec only says the image is sent as a data URL). Pure. */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MEDIA_PREFIX = '/api/media/';
export const VARIANT_WIDTHS = [480, 960] as const;

/**
 * The longest side of an accepted image: WebP's limit, so every variant (never enlarged, so never longer than its
 * original) can be written.
 */
export const MAX_IMAGE_SIDE = 16_383;

/** Why an image of these dimensions is refused (more pixels than `maxPixels`, or a side past WebP's), or undefined. */
export function imageSizeProblem(width: number, height: number, maxPixels: number): string | undefined {
  if (width * height <= maxPixels && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE) return undefined;
  const megapixels = Math.floor(maxPixels / 100_000) / 10;
  return `The image must be at most ${megapixels} megapixels and ${MAX_IMAGE_SIDE.toLocaleString('en')} pixels on a side (this one is ${width} × ${height})`;
}

export const IMAGE_MESSAGES = {
  notDataUrl: 'The image must be an uploaded image file (a base64 data URL)',
  tooLarge: 'The image must be 5 MB or smaller',
  notImage: 'The image must be a JPEG, PNG, WebP, GIF or AVIF picture',
  empty: 'The image file is empty',
} as const;

/** Formats as sharp names them, with the content type each is served with. */
const FORMATS: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/** The content type of an accepted format, or undefined. sharp reports AVIF as heif with AV1 compression. */
export function acceptedContentType(format: string | undefined, compression?: string): string | undefined {
  if (format === 'heif') return compression === 'av1' ? FORMATS.avif : undefined;
  return format ? FORMATS[format] : undefined;
}

export type DataUrl = { kind: 'data'; base64: string } | { kind: 'invalid' };

/**
 * The base64 payload of a data URL (whatever type it claims: the bytes decide). Its header (`data:`, a media type and
 * parameters, `;base64`) ends at the first comma: read with indexOf, in one pass, however many parameters it has.
 */
export function parseDataUrl(value: string): DataUrl {
  const comma = value.indexOf(',');
  const header = comma < 0 ? '' : value.slice(0, comma).toLowerCase();
  if (!header.startsWith('data:') || !header.endsWith(';base64')) return { kind: 'invalid' };
  const base64 = value.slice(comma + 1).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return { kind: 'invalid' };
  return { kind: 'data', base64 };
}

/** Bytes a base64 text decodes to, without decoding it. */
export const decodedLength = (base64: string) =>
  Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

export const mediaUrl = (id: string) => `${MEDIA_PREFIX}${id}`;

/** The id in one of our media URLs ('/api/media/<id>'), or undefined. */
export function mediaIdOf(value: string): string | undefined {
  const match = /^\/api\/media\/([0-9a-f]{24})$/.exec(value);
  return match?.[1];
}

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};
