import sharp from 'sharp';
import { acceptedContentType } from '../domain/image';

/** What the bytes really are, by their content (sharp reads the header): an accepted content type or undefined. */
export async function inspectImage(bytes: Buffer): Promise<string | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    return acceptedContentType(meta.format, meta.compression);
  } catch {
    return undefined;
  }
}

/** A WebP at most `width` pixels wide (never enlarged). */
export function resizeToWebp(bytes: Buffer, width: number): Promise<Buffer> {
  return sharp(bytes).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}
