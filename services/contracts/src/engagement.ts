import type { RouteSchemas } from './route-types';

/** Request and response schemas of the engagement service's /api routes (likes, comments, history, check-ins, event intake). */
export const ENGAGEMENT_SCHEMAS: RouteSchemas = {};
