import type { z } from 'zod';

/** The services behind the gateway (docs/ARCHITECTURE.md, "Shape"). */
export const SERVICES = ['auth', 'content', 'engagement', 'billing', 'reporting'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Who may call a route. The owning service enforces it; the table records it so the gateway's docs show it
 * and a test can walk every route with anonymous, user, premium and admin tokens.
 * - public: anyone; user: any signed-in user; admin: role admin;
 * - link: authorised by a signed or random token in the path or query (e-mail links);
 * - webhook: authorised by a signature (payment provider); dev: embedded topology only.
 */
export type Access = 'public' | 'user' | 'admin' | 'link' | 'webhook' | 'dev';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteContract {
  method: HttpMethod;
  /** Express-style path: '/api/user/details/:id'. */
  path: string;
  service: ServiceName;
  access: Access;
  summary: string;
  /** Where the route is specified: 'reader.md §7', 'admin.md §7', or 'ours' (a call we added, documented here). */
  source: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Response media type when not JSON (e.g. 'text/csv'). */
  produces?: string;
  /**
   * The largest request body of an admin route that carries more than every route's limit (BODY_LIMIT, 100 KB by
   * default), in bytes: an image as a data URL. Only a caller whose Authorization header holds an admin's session
   * token may send more than BODY_LIMIT; who is calling is checked before a byte of the body is read.
   */
  largeBody?: number;
}

/** A service's schemas for its routes, keyed 'METHOD /path' exactly as in apiRoutes. */
export type RouteSchemas = Record<
  string,
  Pick<RouteContract, 'params' | 'query' | 'body' | 'response' | 'produces'>
>;
