import { apiRequest } from '../../shared/http';

interface SettingsResponse {
  status: true;
  settings: unknown;
}

/** GET /api/sitesettings/fetch. The settings object is checked field by field when merged, so it stays unknown here. */
export const fetchSiteSettings = () =>
  apiRequest<SettingsResponse>('GET', '/api/sitesettings/fetch', { timeoutMs: 8000 });
