import type { Request } from 'express';
import type { Viewer } from '../app/reader-posts';

/** Who is asking, from the verified token only (authenticate ran): anonymous = no user, role null. */
export const viewerOf = (req: Request): Viewer => ({
  userId: req.auth?.userId ?? null,
  role: req.auth?.role ?? null,
});
