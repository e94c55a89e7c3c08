import { type DocumentStore, requireInternal, userDataHandler, userDocuments } from '@nudge/platform';
import { Router } from 'express';
import type { Checkins } from '../app/checkins';

/** The reader's data engagement holds: likes, comments, reads, check-in answers, wellbeing, reminders sent. */
export function privacyRoutes(deps: { store: DocumentStore; checkins: Checkins; internalToken: string }) {
  const { store } = deps;
  const router = Router();
  router.post(
    '/internal/privacy/user-data',
    requireInternal(deps.internalToken),
    userDataHandler(async (userId) => {
      const [likes, comments, reads, checkins, wellbeing, reminders] = await Promise.all([
        userDocuments(store, 'likes', userId, { liked: true }),
        userDocuments(store, 'comments', userId, { deleted: false }),
        userDocuments(store, 'reading_history', userId),
        userDocuments(store, 'checkins', userId),
        deps.checkins.progress(userId),
        userDocuments(store, 'reminder_sends', userId),
      ]);
      return [
        { name: 'likes', rows: likes, csv: true },
        { name: 'comments', rows: comments },
        { name: 'reading-history', rows: reads, csv: true },
        { name: 'checkin-answers', rows: checkins, csv: true },
        { name: 'wellbeing-score', rows: [wellbeing] },
        // Each reminder sent, with whether it was opened and how many of its links were clicked.
        { name: 'reminders', rows: reminders, csv: true },
      ];
    }),
  );
  return router;
}
