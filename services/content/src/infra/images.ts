import { acceptedContentType } from '../domain/image';

/** sharp (libvips) is loaded on the first image: a process that is never sent one does not map the library. */
const loadSharp = () => import('sharp').then((m) => m.default);

/** What the bytes really are, by their content (sharp reads the header): an accepted content type or undefined. */
export async function inspectImage(bytes: Buffer): Promise<string | undefined> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes).metadata();
    return acceptedContentType(meta.format, meta.compression);
  } catch {
    return undefined;
  }
}

/** A WebP at most `width` pixels wide (never enlarged). */
export async function resizeToWebp(bytes: Buffer, width: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(bytes).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}
