import {
  CheckinIssueBatchRequest,
  CheckinIssueRequest,
  ClaimSendsRequest,
  RecordSendsRequest,
  ReleaseSendsRequest,
  SendsRecordedRequest,
} from '@nudge/contracts';
import { answerJson, parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';
import type { Checkins } from '../app/checkins';
import type { Reminders } from '../app/reminders';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  checkins: Checkins;
  reminders: Reminders;
  internalToken: string;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** The reminder workflow issues a check-in question to a user and mails the returned links. */
  router.post('/internal/checkin/issue', async (req, res) => {
    const { userId, questionId } = parseBody(CheckinIssueRequest, req);
    answerJson(res, { status: true, ...(await deps.checkins.issue(userId, questionId)) });
  });

  /** The reminder sender: a check-in question for each user of a batch (users without one are absent). */
  router.post('/internal/checkin/issue-batch', async (req, res) => {
    const { userIds } = parseBody(CheckinIssueBatchRequest, req);
    answerJson(res, { status: true, checkins: await deps.checkins.issueBatch([...new Set(userIds)]) });
  });

  /** The reminder sender: which send keys of a batch are already recorded (so a resumed slot skips them). */
  router.post('/internal/reminders/recorded', async (req, res) => {
    const { sendIds } = parseBody(SendsRecordedRequest, req);
    answerJson(res, { status: true, ...(await deps.reminders.recorded(sendIds)) });
  });

  /** The reminder sender: claim a batch's send keys for its slot before delivering them. */
  router.post('/internal/reminders/claim', async (req, res) => {
    answerJson(res, { status: true, ...(await deps.reminders.claim(parseBody(ClaimSendsRequest, req))) });
  });

  /** The reminder sender: give back the claims of sends that did not go (its retry takes them again). */
  router.post('/internal/reminders/release', async (req, res) => {
    answerJson(res, { status: true, ...(await deps.reminders.release(parseBody(ReleaseSendsRequest, req))) });
  });

  /** The reminder sender: record a delivered batch (ReminderSent once per send key). */
  router.post('/internal/reminders/sent', async (req, res) => {
    const { sends } = parseBody(RecordSendsRequest, req);
    answerJson(res, { status: true, ...(await deps.reminders.record(sends)) });
  });

  return router;
}
