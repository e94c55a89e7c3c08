import type { Role } from './common';
import { plainText } from './html-text';
import { textPreview } from './preview';

/** Characters of a gated post's body that readers without access get as `preview` (the card preview length), at most. */
export const PREVIEW_LENGTH = 150;

/** Who may read a premium post's body (DESIGN.md §6): premium users and admins, decided from the verified token. */
export const canReadPremium = (role: Role | null | undefined): boolean =>
  role === 'premium' || role === 'admin';

/** The first words of the plain text within `max` characters, with '...' when cut. */
export const previewOf = (body: string, max = PREVIEW_LENGTH): string => textPreview(plainText(body), max);

export type Gated<T> = Omit<T, 'body'> & { body?: string; locked?: true; preview?: string };

/**
 * What a reader with `role` (null = anonymous) may receive of a post: the whole post, or for a premium post they
 * may not read, everything but the body, with `locked: true` and a short plain-text preview (150 characters, and never
 * more than half the body). Every service that
 * sends posts to readers (content's feed and post, engagement's liked list) passes them through this.
 */
export function gatePost<T extends { type: number; body: string }>(
  post: T,
  role: Role | null | undefined,
): Gated<T> {
  if (post.type !== 1 || canReadPremium(role)) return post;
  const { body, ...rest } = post;
  // Never more than half of the text, so a short premium post is not given away whole by its preview.
  const half = Math.floor(Array.from(plainText(body)).length / 2);
  return { ...rest, locked: true, preview: previewOf(body, Math.min(PREVIEW_LENGTH, half)) };
}
