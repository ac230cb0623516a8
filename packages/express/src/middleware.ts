import { context } from '@opentelemetry/api';
import { expressDiag } from './diag.js';
import { type AqmExpressOptions, requestTracer, resolveOptions } from './options.js';
import { startRequestSpan } from './request-span.js';
import type { AqmMiddleware, AqmRequest } from './types.js';

/**
 * Express middleware (Express 4 and 5) that makes each request an LLM interaction of the app.
 *
 * The request's span is the HTTP server span an instrumentation already made (when one is active
 * and recording) or a SERVER span `{METHOD} {route or path}` started here and ended when the
 * response finishes or closes. It gets `session.id`, `user.id` (from the options, else the
 * `x-session-id`/`x-user-id` headers, else incoming baggage), `deployment.environment.name` and
 * `service.version`; `session.id`/`user.id` also go into the baggage. The rest of the request
 * runs in that context, so LLM spans made by the handler are its children. With `capture`, the
 * prompt and the response are recorded on it as `gen_ai.input.messages`/`gen_ai.output.messages`
 * with `gen_ai.operation.name=invoke_workflow`.
 *
 * The response is never changed: wrapped methods pass their arguments and return values through.
 * A failure inside the middleware is logged through OpenTelemetry's `diag` and never thrown.
 *
 * Throws a `TypeError`/`RangeError` naming the option when an option is invalid.
 *
 * @example
 * app.use(express.json());
 * app.use(aqm({ environment: 'production', appVersion: '1.4.2' }));
 * app.post(
 *   '/chat',
 *   aqm({ capture: { prompt: (req) => req.body.message, response: (body) => (body as { reply: string }).reply } }),
 *   chat,
 * );
 */
export function aqm<Req extends AqmRequest = AqmRequest>(
  options?: AqmExpressOptions<Req>,
): AqmMiddleware<Req>;
export function aqm<Req extends AqmRequest = AqmRequest>(
  options?: AqmExpressOptions<Req>,
  ...misuse: unknown[]
): AqmMiddleware<Req> {
  // `app.use(aqm)` instead of `app.use(aqm())` would hand us (req, res, next).
  if (misuse.length > 0) {
    throw new TypeError(
      'aqm() takes one options object and returns the middleware: write app.use(aqm()), not app.use(aqm)',
    );
  }
  const resolved = resolveOptions<Req>(options);
  const tracer = requestTracer(resolved.tracerProvider);
  return function aqmMiddleware(req, res, next) {
    let ctx: ReturnType<typeof startRequestSpan>;
    try {
      ctx = startRequestSpan(resolved, tracer, req, res);
    } catch (error) {
      expressDiag.error('tracing the request failed; it is served untraced', error);
    }
    if (ctx === undefined) next();
    else context.with(ctx, next);
  };
}
