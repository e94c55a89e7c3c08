import {
  ReportAddRequest,
  ReportDataQuery,
  ReportDownloadQuery,
  ReportIdParams,
  ReportListQuery,
  ReportUpdateRequest,
} from '@nudge/contracts';
import {
  claimsOf,
  forbidden,
  parseBody,
  parseParams,
  parseQuery,
  requireRole,
  requireUser,
} from '@nudge/platform';
import { type Request, Router } from 'express';
import type { ReportData } from '../app/report-data';
import { REPORT_TEXTS, type Reports } from '../app/reports';
import { mayView } from '../domain/reports';

/** Reports (admin) and the report viewer's data and CSV (admins, and a report's access users while it is Active). */
export function reportRoutes(deps: { reports: Reports; data: ReportData }): Router {
  const router = Router();

  const viewable = async (req: Request, id: string) => {
    const claims = claimsOf(req);
    const report = await deps.reports.load(id);
    if (!mayView({ ...report, reportId: report._id }, claims)) throw forbidden(REPORT_TEXTS.accessDenied);
    return report;
  };

  router.post('/api/report/add', requireRole('admin'), async (req, res) => {
    const { token: _t, ...fields } = parseBody(ReportAddRequest, req);
    const report = await deps.reports.add(fields, claimsOf(req).userId);
    res.json({ status: true, message: REPORT_TEXTS.added, report });
  });

  router.get('/api/report/details/:id', requireRole('admin'), async (req, res) => {
    const { id } = parseParams(ReportIdParams, req);
    res.json({ status: true, report: await deps.reports.details(id) });
  });

  router.put('/api/report/update/:id', requireRole('admin'), async (req, res) => {
    const { id } = parseParams(ReportIdParams, req);
    const { token: _t, ...changes } = parseBody(ReportUpdateRequest, req);
    const report = await deps.reports.update(id, changes, claimsOf(req).userId);
    res.json({ status: true, message: REPORT_TEXTS.updated, report });
  });

  router.get('/api/report', requireRole('admin'), async (req, res) => {
    const { page, limit } = parseQuery(ReportListQuery, req);
    res.json({ status: true, ...(await deps.reports.page(page, limit)) });
  });

  router.post('/api/report/data', requireUser, async (req, res) => {
    const { view, id, page, limit } = parseQuery(ReportDataQuery, req);
    const report = await viewable(req, id);
    const pageSize = limit ?? (view === 'monthly' ? 6 : 4);
    const result = await deps.data.page(
      report.monitoredUsers,
      view,
      page,
      pageSize,
      `${report._id}@${report.version}`,
    );
    res.json({ success: true, logo: report.logo, ...result });
  });

  router.get('/api/report/download', requireUser, async (req, res) => {
    const { view, id } = parseQuery(ReportDownloadQuery, req);
    const report = await viewable(req, id);
    res.setHeader('content-disposition', 'attachment; filename="report_data.csv"');
    res.json({ status: true, data: await deps.data.download(report.monitoredUsers, view) });
  });

  return router;
}
