/** The media port: where uploaded images (and their resized variants) are kept. */
export interface StoredMedia {
  bytes: Buffer;
  contentType: string;
}

export interface MediaStore {
  readonly kind: string;
  /** Stores the bytes; returns their new id (24 hex digits). */
  put(bytes: Buffer, contentType: string): Promise<string>;
  /** The bytes and their content type, or null for an unknown id. */
  get(id: string): Promise<StoredMedia | null>;
  close(): Promise<void>;
}

export const isMediaId = (id: string) => /^[0-9a-f]{24}$/.test(id);
