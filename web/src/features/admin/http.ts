import { apiRequest } from '../../shared/http';
import { readToken } from '../../shared/storage';

/**
 * Admin calls carry the stored token twice: in the JSON body (as admin.md §6 says the event-log, report and payment
 * calls do) and as `Authorization: Bearer`, which is the only place a GET can carry it.
 */
export const adminGet = <T>(path: string) => apiRequest<T>('GET', path, { token: readToken() });

export const adminPost = <T>(path: string, body: Record<string, unknown> = {}) => {
  const token = readToken();
  return apiRequest<T>('POST', path, { token, body: { ...body, token: token ?? undefined } });
};

export const adminPut = <T>(path: string, body: Record<string, unknown> = {}) => {
  const token = readToken();
  return apiRequest<T>('PUT', path, { token, body: { ...body, token: token ?? undefined } });
};

/** `/path?page=2&limit=10&email=a` with blank values left out. */
export const withQuery = (path: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};
