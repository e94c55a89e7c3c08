import { apiRequest } from '../../shared/http';
import type { RecommendedPost } from './types';

export const RECOMMENDATION_PAGE_SIZE = 5;

/** POST /api/template/recommendations/{id}?page&limit=5 { token? } -> { status, templates, hasMore }. */
export const fetchRecommendations = (templateId: string, page: number, token: string | null) =>
  apiRequest<{ status: boolean; templates?: RecommendedPost[]; hasMore?: boolean }>(
    'POST',
    `/api/template/recommendations/${encodeURIComponent(templateId)}?page=${page}&limit=${RECOMMENDATION_PAGE_SIZE}`,
    { body: { token: token ?? undefined } },
  );
