import {
  CheckinAnswerQuery,
  CheckinListQuery,
  CheckinQuestionAddRequest,
  CheckinQuestionParams,
  CheckinQuestionUpdateRequest,
  ProgressRequest,
} from '@nudge/contracts';
import { claimsOf, notFound, parseBody, parseQuery, requireRole, requireUser } from '@nudge/platform';
import { Router } from 'express';
import { type CheckinQuestions, QUESTION_TEXTS } from '../app/checkin-questions';
import type { Checkins } from '../app/checkins';
import { parseExact } from './validate';

export function checkinRoutes(deps: { questions: CheckinQuestions; checkins: Checkins }): Router {
  const router = Router();
  const admin = requireRole('admin');
  const questionId = (params: unknown) => {
    const parsed = CheckinQuestionParams.safeParse(params);
    if (!parsed.success) throw notFound(QUESTION_TEXTS.notFound);
    return parsed.data.id;
  };

  // ── the reader's side ──
  router.post('/api/checkin', async (req, res) => {
    const { qlid, a } = parseExact(CheckinAnswerQuery, req.query);
    const result = await deps.checkins.answer(qlid, a);
    res.json({
      status: true,
      user: result.user,
      token: result.token,
      ...(result.alreadyAnswered ? { alreadyAnswered: true } : {}),
    });
  });

  router.post('/api/checkin/progress', requireUser, async (req, res) => {
    parseBody(ProgressRequest, req);
    res.json({ status: true, ...(await deps.checkins.progress(claimsOf(req).userId)) });
  });

  // ── admin: check-in questions ──
  router.post('/api/checkin/add', admin, async (req, res) => {
    const { token: _token, ...fields } = parseBody(CheckinQuestionAddRequest, req);
    const data = await deps.questions.add(fields, claimsOf(req).userId);
    res.json({ status: true, message: QUESTION_TEXTS.added, data });
  });

  router.get('/api/checkin/details/:id', admin, async (req, res) => {
    const id = questionId(req.params);
    res.json({ status: true, data: await deps.questions.details(id) });
  });

  router.post('/api/checkin/update/:id', admin, async (req, res) => {
    const id = questionId(req.params);
    const changes = parseBody(CheckinQuestionUpdateRequest, req);
    const data = await deps.questions.update(id, changes, claimsOf(req).userId);
    res.json({ status: true, message: QUESTION_TEXTS.updated, data });
  });

  router.get('/api/checkin/checkin', admin, async (req, res) => {
    const { page, limit } = parseQuery(CheckinListQuery, req);
    res.json({ status: true, ...(await deps.questions.page(page, limit)) });
  });

  router.get('/api/checkin/allcheckin', admin, async (_req, res) => {
    res.json({ status: true, data: await deps.questions.all() });
  });

  return router;
}
