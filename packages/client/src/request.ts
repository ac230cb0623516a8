import { buildPath, type FieldError, formatPath, type HttpMethod, type RouteName, routes } from '@aqm/wire';
import { describeValue, isPlainObject } from './checks.js';
import { adoptNormalizedTimestamps, convertDates } from './dates.js';
import { AqmInputError } from './errors.js';

/** What a resource method hands over: path parameters, query and body as the caller gave them. */
export interface RequestInput {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
  /**
   * A body already serialised to JSON by the caller, sent as it is instead of `body`: the
   * client-side schema check is skipped and the service's validation is the one that applies.
   */
  rawBody?: string | Uint8Array;
}

/** A request ready to send: checked, with Dates converted and the body serialised. */
export interface PreparedRequest {
  route: RouteName;
  method: HttpMethod;
  /** Path relative to the base URL, without the query string (what errors report). */
  path: string;
  /** `path` plus `?query` when there is one. */
  pathWithQuery: string;
  /** JSON body, for routes that take one. */
  body: string | Uint8Array | undefined;
  /** Safe to send again after a failure (from the route table). */
  retryable: boolean;
}

/** The parts of a zod issue the client reads. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** Minimal view of a zod schema: the client only needs `safeParse`. */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: Issue[] } };
}

/** The value at a zod issue path, to show what was rejected. */
function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    current =
      typeof current === 'object' && current !== null
        ? (current as Record<PropertyKey, unknown>)[key]
        : undefined;
  }
  return current;
}

/** Primitive values are shown in messages; objects and arrays would say little. */
function shownValue(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? undefined : value;
}

/** A field error as shown in a message: path, reason and, for a present value, what it was. */
export interface ShownError extends FieldError {
  got?: unknown;
}

/** The error for input refused before sending: each field's path, reason and, for a primitive, the value. */
export function inputError(route: RouteName, shown: ShownError[]): AqmInputError {
  const { method, path } = routes[route];
  const list = shown
    .map((e) => `${e.path} ${e.message}${e.got === undefined ? '' : ` (got ${describeValue(e.got)})`}`)
    .join('; ');
  const errors = shown.map((e) => ({ path: e.path, message: e.message }));
  return new AqmInputError(`Invalid input for ${route} (${method} ${path}): ${list}`, {
    method,
    path,
    errors,
  });
}

function checkParams(route: RouteName, params: Record<string, unknown>): Record<string, string> {
  const names = [...routes[route].path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const errors: ShownError[] = names
    .filter((name) => typeof params[name] !== 'string' || params[name] === '')
    .map((name) => ({
      path: name,
      message: 'is required and must be a non-empty string',
      got: shownValue(params[name]),
    }));
  if (errors.length > 0) throw inputError(route, errors);
  return params as Record<string, string>;
}

/**
 * Checks `value` (Dates converted) against a wire schema and returns what to send: the caller's
 * value, with timestamps in UTC. For bodies, `unrecognized_keys` issues are ignored so the client
 * can send fields a newer service knows.
 */
function validate(route: RouteName, schema: Schema, value: unknown, allowUnknownKeys: boolean): unknown {
  const dateErrors: FieldError[] = [];
  const converted = convertDates(value, dateErrors);
  const result = schema.safeParse(converted);
  const issues = result.success
    ? []
    : result.error.issues.filter((i) => !(allowUnknownKeys && i.code === 'unrecognized_keys'));
  // An invalid Date also fails the schema at its path; report it once, as a Date problem.
  const datePaths = new Set(dateErrors.map((e) => e.path));
  const errors: ShownError[] = [
    ...dateErrors,
    ...issues
      .map((i) => ({
        path: formatPath(i.path),
        message: i.message,
        got: shownValue(valueAt(converted, i.path)),
      }))
      .filter((e) => !datePaths.has(e.path)),
  ];
  if (errors.length > 0) throw inputError(route, errors);
  if (result.success) return adoptNormalizedTimestamps(converted, result.data);
  // Only unknown keys were reported: parse without them to learn how timestamps normalise.
  const reparsed = schema.safeParse(withoutUnknownKeys(converted, result.error.issues));
  return reparsed.success ? adoptNormalizedTimestamps(converted, reparsed.data) : converted;
}

/** A copy of `value` without the keys that `unrecognized_keys` issues name. */
function withoutUnknownKeys(value: unknown, issues: Issue[]): unknown {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value));
  } catch {
    return value; // not serialisable: serialize() reports it
  }
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys' || !issue.keys) continue;
    const target = valueAt(copy, issue.path);
    if (isPlainObject(target)) for (const key of issue.keys) delete target[key];
  }
  return copy;
}

function serialize(route: RouteName, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    throw inputError(route, [
      { path: '$', message: `must be JSON-serialisable (${(err as Error).message})` },
    ]);
  }
}

function queryString(query: unknown): string {
  if (!isPlainObject(query)) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Builds a request from the wire route table: fills the path, checks path parameters, query and
 * body before anything is sent, and throws {@link AqmInputError} naming each bad parameter.
 */
export function prepareRequest(route: RouteName, input: RequestInput = {}): PreparedRequest {
  const def = routes[route];
  const path = buildPath(def.path, checkParams(route, input.params ?? {}));
  let query = '';
  if ('query' in def) query = queryString(validate(route, def.query as Schema, input.query ?? {}, false));
  let body: string | Uint8Array | undefined;
  if ('body' in def) {
    body = input.rawBody ?? serialize(route, validate(route, def.body as Schema, input.body, true));
  }
  return {
    route,
    method: def.method,
    path,
    pathWithQuery: `${path}${query}`,
    body,
    retryable: def.retryable,
  };
}
