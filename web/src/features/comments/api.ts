import type { UserResponse } from '../../shared/contracts';
import { apiRequest } from '../../shared/http';
import { COMMENT_PAGE_SIZE } from './commentRules';
import type { PostComment } from './types';

/** With the reader's token the server marks their own comments (`mine`). */
export const fetchComments = (token: string | null, templateId: string, page: number) =>
  apiRequest<{ comments?: PostComment[] }>(
    'GET',
    `/api/comment/comments/${encodeURIComponent(templateId)}?page=${page}&limit=${COMMENT_PAGE_SIZE}`,
    { token },
  );

export const addComment = (token: string | null, templateid: string, message: string) =>
  apiRequest<{ comment?: Partial<PostComment> | null }>('POST', '/api/comment/add', {
    body: { token: token ?? undefined, templateid, message },
  });

export const editComment = (token: string | null, id: string, comment: string) =>
  apiRequest<unknown>('POST', '/api/comment/edit', { body: { token: token ?? undefined, id, comment } });

export const deleteComment = (token: string | null, id: string) =>
  apiRequest<unknown>('POST', '/api/comment/delete', { body: { token: token ?? undefined, id } });

/** POST /api/user/updatename (reader.md §7): the commenter's first and last name. */
export const updateName = (token: string | null, firstname: string, lastname: string) =>
  apiRequest<UserResponse>('POST', '/api/user/updatename', {
    body: { token: token ?? undefined, firstname, lastname },
  });
