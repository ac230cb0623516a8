import {
  type FieldError,
  formatPath,
  paginationOf,
  pathWithNul,
  type RouteDef,
  type RouteName,
  routes,
  toFieldErrors,
  traceIdSchema,
  uuidParamSchema,
} from '@aqm/wire';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from '../errors.js';
import type { FairTurns } from '../fair-turns.js';
import type { RouteHandlers } from './route-types.js';

/** How each path parameter is checked: malformed ids are a 400 naming the parameter. */
const PARAM_SCHEMAS: Record<string, typeof uuidParamSchema | typeof traceIdSchema> = {
  applicationId: uuidParamSchema,
  evaluationId: uuidParamSchema,
  traceId: traceIdSchema,
};

/** A handler as the registration loop sees it; parsing guarantees the typed input at run time. */
type ParsedHandler = (input: ParsedInput) => unknown;
interface ParsedInput {
  projectId: string;
  params: Record<string, string>;
  query: unknown;
  body: unknown;
}

/** Route config that tells the hooks which wire route a request is for. */
export interface AqmRouteConfig {
  routeName: RouteName;
}

/** What the routes need of the service around them. */
export interface RouteServices {
  /** The project of an authenticated request. */
  projectOf: (request: FastifyRequest) => string;
  /** Turns for the synchronous work, round-robin over projects. */
  turns: FairTurns;
  /** Keeps the request counted as in progress until `work` settles (admission). */
  holdWhile: <T>(request: FastifyRequest, work: Promise<T>) => Promise<T>;
}

/** `/applications/{applicationId}` → `/applications/:applicationId` */
export function toFastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Registers every route of the wire table with its handler. The wire schemas validate params,
 * query and body (all failures reported together as one 400), and the handler's result is put
 * in the route's envelope: `{ success, data }` or `{ success, data, pagination }`. Validation and
 * the handler's synchronous part run in the project's turn, and the request stays in progress
 * until its handler has finished.
 */
export function registerRoutes(app: FastifyInstance, handlers: RouteHandlers, services: RouteServices): void {
  const { projectOf, turns, holdWhile } = services;
  for (const name of Object.keys(routes) as RouteName[]) {
    const def: RouteDef = routes[name];
    const handler = handlers[name] as unknown as ParsedHandler;
    const config: AqmRouteConfig = { routeName: name };
    app.route({
      method: def.method,
      url: toFastifyPath(def.path),
      config,
      handler: async (request) => {
        const projectId = projectOf(request);
        const { input, result } = await holdWhile(
          request,
          turns.run(projectId, async () => {
            const input = parseInput(def, request, projectId);
            return { input, result: await handler(input) };
          }),
        );
        if (def.response === 'paged') {
          const { items, total } = result as { items: unknown[]; total: number };
          const { page, limit } = input.query as { page: number; limit: number };
          return { success: true, data: items, pagination: paginationOf(page, limit, total) };
        }
        return { success: true, data: result };
      },
    });
  }
}

function parseInput(def: RouteDef, request: FastifyRequest, projectId: string): ParsedInput {
  const errors: FieldError[] = [];
  const rawParams = (request.params ?? {}) as Record<string, string>;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawParams)) {
    const schema = PARAM_SCHEMAS[key];
    const parsed = schema === undefined ? { success: true as const, data: value } : schema.safeParse(value);
    if (parsed.success) params[key] = parsed.data;
    else errors.push(...toFieldErrors(parsed.error, key));
  }
  const queryErrors: FieldError[] = [];
  const query = parseWith(def.query, request.query, queryErrors);
  errors.push(...namingRepeats(request.query, queryErrors));
  const body = parseWith(def.body, request.body, errors, 'is required: send a JSON object body');
  if (errors.length > 0) throw validationError(errors);
  return { projectId, params, query, body };
}

function parseWith(
  schema: RouteDef['query'],
  value: unknown,
  errors: FieldError[],
  missing?: string,
): unknown {
  if (schema === undefined) return undefined;
  if (value === undefined && missing !== undefined) {
    errors.push({ path: '$', message: missing });
    return undefined;
  }
  // The store ends strings at NUL, so no string may hold one: refused for every route, query and
  // body alike, rather than stored cut (names, prompts) or matched as empty (search=%00).
  const nul = pathWithNul(value);
  if (nul !== undefined) {
    errors.push({ path: formatPath(nul), message: 'must not contain NUL (U+0000) characters' });
    return undefined;
  }
  // Every body is an object (only bodies have a `missing` message): a JSON array, string or null
  // is named as such, not with the schema's generic "expected object, received array".
  if (missing !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    errors.push({ path: '$', message: `must be a JSON object, got ${jsonKind(value)}` });
    return undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  errors.push(...toFieldErrors(parsed.error));
  return undefined;
}

/**
 * A query parameter given twice (`page=1&page=2`) reaches the schema as an array, which it refuses
 * with a message about the value ("must be an integer >= 1", "expected string, received array")
 * that misleads: each value may be fine. Such errors are reworded to name the repetition.
 */
function namingRepeats(rawQuery: unknown, errors: FieldError[]): FieldError[] {
  const raw = (rawQuery ?? {}) as Record<string, unknown>;
  const seen = new Set<string>();
  return errors.flatMap((error) => {
    const value = Object.hasOwn(raw, error.path) ? raw[error.path] : undefined;
    if (!Array.isArray(value)) return [error];
    if (seen.has(error.path)) return [];
    seen.add(error.path);
    return [{ path: error.path, message: `must be given once (got ${value.length} values)` }];
  });
}

/** What a JSON value is, for a message: `an array`, `null`, `a string`, ... */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
