/**
 * Structural types of the Express objects the middleware touches. They name only what it uses,
 * so Express 4 and 5 apps (typed with their own `@types/express`, or not typed at all) pass their
 * `req`/`res`/`next` without this package depending on Express or its types.
 */

/** Header values as Node's `IncomingMessage#headers` holds them. */
export type AqmHeaders = Record<string, string | string[] | undefined>;

/** The parts of an Express request the middleware reads. */
export interface AqmRequest {
  /** HTTP method, e.g. `POST`. */
  method?: string | undefined;
  /** Request URL as received (path and query). */
  url?: string | undefined;
  /** Express: the URL before any router stripped its mount path. */
  originalUrl?: string | undefined;
  /** Express: the mount path of the router that matched. */
  baseUrl?: string | undefined;
  /** Express: the route that matched (set once routing reached a route handler). */
  route?: unknown;
  /** Request headers, lowercased names. */
  headers: AqmHeaders;
  /**
   * Express: the parsed body (`express.json()` and the like), typed `any` as Express's own `Request`
   * types it unless told otherwise. A capture function whose `req` TypeScript cannot infer from
   * the route (an inline handler next to it, a middleware made apart from the route) gets this
   * type, so `req.body.message` compiles there as in the handler. To type it, give the request
   * type: `aqm<Request<ParamsDictionary, unknown, { message: string }>>({ ... })`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the type Express gives an unparsed-for body; `unknown` would break `req.body.x` in capture functions that compile against Express's own Request
  body?: any;
}

/** A function whose arguments and result the middleware passes through untouched. */
// `never[]` parameters accept every function, whatever its overloads, without `any`.
export type PassThroughMethod = (...args: never[]) => unknown;

/** The parts of an Express response the middleware reads or wraps. */
export interface AqmResponse {
  /** Status code sent (or to be sent). */
  statusCode: number;
  /** Reads a response header, e.g. `content-type`. */
  getHeader(name: string): unknown;
  /** Adds a listener; `finish` and `close` end the request span. */
  once(event: 'finish' | 'close', listener: () => void): unknown;
  /** Node's `ServerResponse#write`, wrapped to capture streamed output. */
  write: PassThroughMethod;
  /** Node's `ServerResponse#end`, wrapped to capture the last chunk. */
  end: PassThroughMethod;
}

/**
 * What the capture wraps besides `write`/`end`: Express's `res.json` and `res.send`. They are kept
 * out of {@link AqmResponse} on purpose: Express infers a route's response body type from every
 * handler's `res.json`, and a loose signature here would narrow it for the handlers next to ours.
 */
export interface AqmExpressResponse extends AqmResponse {
  json?: unknown;
  send?: unknown;
}

/** Express's `next`: called with nothing to go on, or with an error to go to the error handlers. */
export type AqmNext = (error?: unknown) => void;

/** The middleware returned by `aqm()`. */
export type AqmMiddleware<Req extends AqmRequest = AqmRequest> = (
  req: Req,
  res: AqmResponse,
  next: AqmNext,
) => void;

/** The error-handling middleware returned by `aqmErrorHandler()` (four parameters, as Express requires). */
export type AqmErrorMiddleware = (error: unknown, req: AqmRequest, res: AqmResponse, next: AqmNext) => void;
