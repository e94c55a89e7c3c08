import { apiRequest } from '../../shared/http';
import type { PostDetail } from './types';

/** POST /api/template/{id} (reader.md §7): the token is optional, the server gates premium bodies by it. */
export const fetchPost = (id: string, token: string | null) =>
  apiRequest<{ template: PostDetail }>('POST', `/api/template/${encodeURIComponent(id)}`, {
    body: { token: token ?? undefined },
  });

/** POST /api/like/add: like (status true) or unlike (false); the answer is not read (reader.md §7). */
export const sendLike = (token: string | null, templateid: string, status: boolean) =>
  apiRequest<unknown>('POST', '/api/like/add', { body: { token: token ?? undefined, templateid, status } });
