import { type DocumentStore, requireInternal, userDataHandler, userDocuments } from '@nudge/platform';
import { Router } from 'express';

/** The reader's data content holds: the posts they opened. */
export function privacyRoutes(deps: { store: DocumentStore; internalToken: string }) {
  const router = Router();
  router.post(
    '/internal/privacy/user-data',
    requireInternal(deps.internalToken),
    userDataHandler(async (userId) => [
      { name: 'posts-opened', rows: await userDocuments(deps.store, 'post_reads', userId), csv: true },
    ]),
  );
  return router;
}
