import type { RouteSchemas } from './route-types';

/** Request and response schemas of the content service's /api routes (topics, posts, feed, promotions, site settings, AI writer, media). */
export const CONTENT_SCHEMAS: RouteSchemas = {};
