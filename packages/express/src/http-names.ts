import type { AqmRequest } from './types.js';

/** The request's method, uppercased (`GET` when Node gave none). */
export function requestMethod(req: AqmRequest): string {
  return typeof req.method === 'string' && req.method !== '' ? req.method.toUpperCase() : 'GET';
}

/** The path of the request URL, before any router stripped its mount path, without the query. */
export function requestPath(req: AqmRequest): string {
  const url = typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/');
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * The route template that matched (`/chat/:id`, with the mount path of its router in front), or
 * `undefined` when no route handler was reached (e.g. the response came from a middleware).
 */
export function matchedRoute(req: AqmRequest): string | undefined {
  const route = req.route as { path?: unknown } | undefined;
  if (typeof route !== 'object' || route === null || typeof route.path !== 'string') return undefined;
  const base = typeof req.baseUrl === 'string' ? req.baseUrl : '';
  return `${base}${route.path}` || '/';
}
