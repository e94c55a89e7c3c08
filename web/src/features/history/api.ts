import { apiRequest } from '../../shared/http';
import type { HistoryEntry } from '../progress/history';

/** POST /api/history/getuserhistory { token } -> { status, history } (reader.md §7). */
export const fetchUserHistory = (token: string | null) =>
  apiRequest<{ status: boolean; history?: HistoryEntry[] | null }>('POST', '/api/history/getuserhistory', {
    body: { token: token ?? undefined },
  });
