import { findRoute, type RouteContract } from '@nudge/contracts';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';

const routes = new WeakMap<Request, RouteContract | null>();

/**
 * The contract routes of the paths called lately, by method and path: findRoute compares a path with every route of
 * the contract, and most calls are of a few paths (isauth, the feed pages). Paths with ids (a post's) are many, so it
 * is bounded.
 */
const byPath = new LRUCache<string, RouteContract | 'none'>({ max: 2000 });

/** The contract route of a request (looked up once per request: the proxy, the metrics and the log all ask). */
export function contractRoute(req: Request): RouteContract | undefined {
  let route = routes.get(req);
  if (route === undefined) {
    const url = req.originalUrl ?? req.url ?? '/';
    const queryAt = url.indexOf('?');
    const key = `${req.method} ${queryAt < 0 ? url : url.slice(0, queryAt)}`;
    let found = byPath.get(key);
    if (found === undefined) {
      found = findRoute(req.method, queryAt < 0 ? url : url.slice(0, queryAt)) ?? 'none';
      byPath.set(key, found);
    }
    route = found === 'none' ? null : found;
    routes.set(req, route);
  }
  return route ?? undefined;
}
