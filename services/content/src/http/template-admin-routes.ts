import {
  AddTemplateRequest,
  ContentIdParams,
  GenerateContentRequest,
  TemplateListQuery,
  UpdateTemplateRequest,
} from '@nudge/contracts';
import { claimsOf, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { AiWriter } from '../app/ai-writer';
import type { Templates } from '../app/templates';
import { bodyOf, paramsOf, queryOf } from './parse';

/** admin.md §7 post calls and the AI writer; every one needs role admin. */
export function templateAdminRoutes(deps: { templates: Templates; ai: AiWriter }): Router {
  const { templates, ai } = deps;
  const router = Router();
  const admins = requireRole('admin');

  router.post('/api/template/generate-content', admins, async (req, res) => {
    const { prompt, kind } = bodyOf(GenerateContentRequest, req);
    res.json({ status: true, content: await ai.generate(prompt, kind) });
  });

  router.post('/api/template/add', admins, async (req, res) => {
    const input = bodyOf(AddTemplateRequest, req);
    const template = await templates.add(input, claimsOf(req).userId);
    res.json({ status: true, template, message: 'Template Added Successfully' });
  });

  router.get('/api/template/templates', admins, async (req, res) => {
    const { page, limit } = queryOf(TemplateListQuery, req);
    res.json({ status: true, ...(await templates.page(page, limit)) });
  });

  router.get('/api/template/alltemplates', admins, async (_req, res) => {
    res.json({ status: true, data: await templates.all(false) });
  });

  router.get('/api/template/allsubjecttemplates', admins, async (_req, res) => {
    res.json({ status: true, data: await templates.all(true) });
  });

  router.get('/api/template/details/:id', admins, async (req, res) => {
    const { id } = paramsOf(ContentIdParams, req);
    res.json({ status: true, template: await templates.details(id) });
  });

  router.post('/api/template/update/:id', admins, async (req, res) => {
    const { id } = paramsOf(ContentIdParams, req);
    const { info } = bodyOf(UpdateTemplateRequest, req);
    const template = await templates.update(id, info, claimsOf(req).userId);
    res.json({ status: true, template, message: 'Template Edit Successfully' });
  });

  return router;
}
