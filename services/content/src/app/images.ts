import { badRequest } from '@nudge/platform';
import {
  decodedLength,
  IMAGE_MESSAGES,
  imageSizeProblem,
  isHttpUrl,
  MAX_IMAGE_BYTES,
  mediaIdOf,
  mediaUrl,
  parseDataUrl,
} from '../domain/image';
import type { InspectedImage } from '../infra/images';
import type { MediaStore } from '../infra/media';

export interface ImageIntakeDeps {
  media: MediaStore;
  /** The accepted content type and dimensions of the bytes (from their header), or undefined. */
  inspect(bytes: Buffer): Promise<InspectedImage | undefined>;
  /** IMAGE_MAX_PIXELS: the most pixels (width × height) an upload may have. */
  maxPixels: number;
}

export interface ImageIntake {
  /**
   * The value a document keeps for an image field: undefined (absent: keep the old one), '' (none), the
   * /api/media URL of a just-stored upload, or an image URL the field already held (kept as is).
   */
  resolve(value: string | undefined, options?: { allowHttp?: boolean }): Promise<string | undefined>;
}

/**
 * Uploaded images (data URLs): checked by their bytes, at most 5 MB, and by their dimensions (a small file can hold a
 * huge picture, and a variant decodes it whole), then stored through the media port.
 */
export function createImageIntake(deps: ImageIntakeDeps): ImageIntake {
  const store = async (value: string): Promise<string> => {
    const parsed = parseDataUrl(value);
    if (parsed.kind === 'invalid') throw badRequest(IMAGE_MESSAGES.notDataUrl);
    if (decodedLength(parsed.base64) > MAX_IMAGE_BYTES) throw badRequest(IMAGE_MESSAGES.tooLarge);
    const bytes = Buffer.from(parsed.base64, 'base64');
    if (bytes.length === 0) throw badRequest(IMAGE_MESSAGES.empty);
    const image = await deps.inspect(bytes);
    if (!image) throw badRequest(IMAGE_MESSAGES.notImage);
    const tooLarge = imageSizeProblem(image.width, image.height, deps.maxPixels);
    if (tooLarge) throw badRequest(tooLarge);
    return mediaUrl(await deps.media.put(bytes, image.contentType));
  };

  return {
    async resolve(raw, options = {}) {
      if (raw === undefined) return undefined;
      const value = raw.trim();
      if (value === '') return '';
      if (value.slice(0, 5).toLowerCase() === 'data:') return store(value);
      if (mediaIdOf(value)) return value;
      if (options.allowHttp && isHttpUrl(value)) return value;
      throw badRequest(
        options.allowHttp
          ? 'The image URL must be an http(s) address or an uploaded image'
          : IMAGE_MESSAGES.notDataUrl,
      );
    },
  };
}
