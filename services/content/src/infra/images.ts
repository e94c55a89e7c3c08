import { acceptedContentType, imageSizeProblem } from '../domain/image';

/** sharp (libvips) is loaded on the first image: a process that is never sent one does not map the library. */
const loadSharp = () => import('sharp').then((m) => m.default);

export interface InspectedImage {
  /** The accepted content type of the bytes, judged by their content. */
  contentType: string;
  width: number;
  height: number;
}

/** What the bytes really are and their dimensions, from the header alone (no pixel is decoded), or undefined. */
export async function inspectImage(bytes: Buffer): Promise<InspectedImage | undefined> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes).metadata();
    const contentType = acceptedContentType(meta.format, meta.compression);
    if (!contentType || !meta.width || !meta.height) return undefined;
    return { contentType, width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}

/**
 * Makes WebPs at most `width` pixels wide (never enlarged). An original past the size limits (stored before them) is
 * not decoded at all: the answer is null. libvips is also told the pixel limit, so it refuses before reading pixels
 * whatever the header check missed.
 */
export function createResizer(maxPixels: number) {
  return async (bytes: Buffer, width: number): Promise<Buffer | null> => {
    const found = await inspectImage(bytes);
    if (!found || imageSizeProblem(found.width, found.height, maxPixels)) return null;
    const sharp = await loadSharp();
    return sharp(bytes, { limitInputPixels: maxPixels })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  };
}
