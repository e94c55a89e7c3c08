import { adminGet, adminPost, adminPut, withQuery } from './http';
import type { ListQuery } from './lists';
import { PAGE_SIZE } from './paging';
import type { ReportCsv, ReportData } from './report/rules';
import type {
  AdminTemplate,
  AdminUser,
  CheckinQuestion,
  EventLog,
  ListResponse,
  Promotion,
  Report,
  ServerSiteSettings,
  Topic,
  Transaction,
} from './types';

/** A list page's query: the 1-based page, its size, and the list's filters and sort (blank ones left out). */
const page = (n: number, limit = PAGE_SIZE, extra: Record<string, string | undefined> = {}) => ({
  ...extra,
  page: n,
  limit,
});

// users (auth)
export const fetchUsers = (n: number, limit: number, query: ListQuery) =>
  adminGet<ListResponse<AdminUser>>(withQuery('/api/user/getallusers', page(n, limit, query)));
export const fetchAllUserData = () =>
  adminGet<{ status: boolean; data: unknown }>('/api/user/getalluserdata');
export const fetchUserRange = (from: number, to: number) =>
  adminPost<{ status: boolean; data: unknown }>('/api/user/getpaginationluserdata', { from, to });
export const addUsers = (info: {
  emails: string;
  notiinfo: { time: string; active: boolean };
  topics: string[];
  type: 0 | 1;
}) =>
  adminPost<{ status: boolean; message: string; added: string[]; skipped: string[] }>('/api/user/add', {
    info,
  });
export const updateUser = (id: string, info: Record<string, unknown>) =>
  adminPost<{ status: boolean; user: AdminUser }>(`/api/user/update/${id}`, { info });

// topics, templates, AI writer, promotions, site settings (content)
export const fetchTopics = () => adminGet<{ status: boolean; topics: Topic[] }>('/api/topic/getalltopics');
export const addTopic = (topic: string) =>
  adminPost<{ status: boolean; message: string; topic: Topic }>('/api/topic/add', { topic });
export const fetchTemplates = (n: number, limit: number) =>
  adminGet<ListResponse<AdminTemplate>>(withQuery('/api/template/templates', page(n, limit)));
export const fetchSubjectTemplates = () =>
  adminGet<{ status: boolean; data: AdminTemplate[] }>('/api/template/allsubjecttemplates');
export const addTemplate = (payload: Record<string, unknown>) =>
  adminPost<{ status: boolean; template: AdminTemplate; message?: string }>('/api/template/add', payload);
export const updateTemplate = (id: string, info: Record<string, unknown>) =>
  adminPost<{ status: boolean; template: AdminTemplate }>(`/api/template/update/${id}`, { info });
export const generateContent = (prompt: string, kind: 'body' | 'subjects') =>
  adminPost<{ status: boolean; content: string }>('/api/template/generate-content', { prompt, kind });
/** GET /api/promotion/all answers every promotion: the table pages them by 10 like the others. */
export const fetchPromotions = async (n: number, limit: number): Promise<ListResponse<Promotion>> => {
  const all = await adminGet<{ status: boolean; data: Promotion[] }>('/api/promotion/all');
  const rows = all.data ?? [];
  return { status: true, total: rows.length, data: rows.slice((n - 1) * limit, n * limit) };
};
export const addPromotion = (payload: Record<string, unknown>) =>
  adminPost<{ status: boolean; promotion: Promotion }>('/api/promotion/add', payload);
export const updatePromotion = (id: string, info: Record<string, unknown>) =>
  adminPost<{ status: boolean; promotion: Promotion }>(`/api/promotion/update/${id}`, { info });
export const saveSiteSettings = (settings: Record<string, unknown>) =>
  adminPut<{ status: boolean; settings: ServerSiteSettings }>('/api/sitesettings/update', { settings });
export const fetchServerSettings = () =>
  adminGet<{ status: boolean; settings: ServerSiteSettings }>('/api/sitesettings/fetch');

// transactions (billing)
export const fetchTransactions = (n: number, limit: number, query: ListQuery) =>
  adminPost<ListResponse<Transaction>>(withQuery('/api/payment/alldata', page(n, limit, query)));

// check-in questions (engagement)
export const fetchCheckins = (n: number, limit: number) =>
  adminGet<ListResponse<CheckinQuestion>>(withQuery('/api/checkin/checkin', page(n, limit)));
export const fetchAllCheckins = () =>
  adminGet<{ status: boolean; data: CheckinQuestion[] }>('/api/checkin/allcheckin');
export const addCheckin = (payload: Record<string, unknown>) =>
  adminPost<{ status: boolean; data: CheckinQuestion }>('/api/checkin/add', payload);
export const updateCheckin = (id: string, payload: Record<string, unknown>) =>
  adminPost<{ status: boolean; data: CheckinQuestion }>(`/api/checkin/update/${id}`, payload);

// reports and event logs (reporting)
export const fetchReports = (n: number, limit: number) =>
  adminGet<ListResponse<Report>>(withQuery('/api/report', page(n, limit)));
export const addReport = (payload: Record<string, unknown>) =>
  adminPost<{ status: boolean; report: Report }>('/api/report/add', payload);
export const updateReport = (id: string, payload: Record<string, unknown>) =>
  adminPut<{ status: boolean; report: Report }>(`/api/report/update/${id}`, payload);
export const fetchEventLogs = (n: number, limit: number, query: ListQuery) =>
  adminPost<ListResponse<EventLog>>(withQuery('/api/eventlogs/logs', page(n, limit, query)));

export const fetchReportData = (id: string, view: 'monthly' | 'quarterly', n: number, limit: number) =>
  adminPost<ReportData>(withQuery('/api/report/data', { view, id, page: n, limit }));
export const fetchReportCsv = (id: string, view: 'monthly' | 'quarterly') =>
  adminGet<{ status?: boolean; data: ReportCsv }>(withQuery('/api/report/download', { view, id }));
