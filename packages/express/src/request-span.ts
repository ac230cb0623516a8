import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_DEPLOYMENT_ENVIRONMENT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_VERSION,
  ATTR_SESSION_ID,
  ATTR_URL_PATH,
  ATTR_USER_ID,
  OPERATION_INVOKE_WORKFLOW,
} from './attributes.js';
import { recordCapture } from './capture.js';
import { expressDiag } from './diag.js';
import { matchedRoute, requestMethod, requestPath } from './http-names.js';
import { readIdentity, withIdentityBaggage } from './identity.js';
import type { ResolvedOptions } from './options.js';
import { type RequestState, requestStateOf, setRequestState } from './request-state.js';
import { ResponseTap } from './response-tap.js';
import type { AqmRequest, AqmResponse } from './types.js';

/** Runs `fn` at most once; later calls do nothing. */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

function interactionAttributes<Req extends AqmRequest>(
  options: ResolvedOptions<Req>,
  req: Req,
  parent: Context,
) {
  const identity = readIdentity(options, req, propagation.getBaggage(parent));
  const attributes: Attributes = {};
  if (identity.sessionId !== undefined) attributes[ATTR_SESSION_ID] = identity.sessionId;
  if (identity.userId !== undefined) attributes[ATTR_USER_ID] = identity.userId;
  if (options.environment !== undefined) attributes[ATTR_DEPLOYMENT_ENVIRONMENT] = options.environment;
  if (options.appVersion !== undefined) attributes[ATTR_SERVICE_VERSION] = options.appVersion;
  if (options.capture !== undefined) attributes[ATTR_GEN_AI_OPERATION_NAME] = OPERATION_INVOKE_WORKFLOW;
  return { identity, attributes };
}

/** Completes the span the middleware started: route name, status code, 5xx as an error, end. */
function endOwnedSpan(state: RequestState, req: AqmRequest, res: AqmResponse): void {
  const { span } = state;
  const route = matchedRoute(req);
  if (route !== undefined) {
    span.updateName(`${requestMethod(req)} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
  }
  const status = res.statusCode;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  // HTTP semantic conventions: a server span is an error for 5xx only (4xx is the client's fault).
  if (status >= 500 && !state.errorRecorded) {
    span.setAttribute(ATTR_ERROR_TYPE, String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Makes the request an LLM interaction: finds the HTTP server span an instrumentation made (an
 * active, recording span) or starts a SERVER span (continuing the trace of the incoming
 * `traceparent` header when there is no active span at all), sets the session, user, deployment
 * and capture attributes on it, and returns the context the rest of the request must run in
 * (that span, plus `session.id`/`user.id` baggage). Returns `undefined` when the request is
 * already traced by an outer `aqm()`.
 */
export function startRequestSpan<Req extends AqmRequest>(
  options: ResolvedOptions<Req>,
  tracer: Tracer,
  req: Req,
  res: AqmResponse,
): Context | undefined {
  if (requestStateOf(req) !== undefined) return undefined;
  const active = context.active();
  const existing = trace.getSpan(active);
  // With no server span around, act as the server instrumentation would: continue the caller's
  // trace and baggage from the `traceparent`/`baggage` headers (through the global propagator).
  const parent = existing === undefined ? propagation.extract(active, req.headers) : active;
  const { identity, attributes } = interactionAttributes(options, req, parent);

  let span: Span;
  let ctx: Context;
  if (existing?.isRecording()) {
    span = existing;
    span.setAttributes(attributes);
    ctx = parent;
  } else {
    const method = requestMethod(req);
    const path = requestPath(req);
    span = tracer.startSpan(
      `${method} ${path}`,
      {
        kind: SpanKind.SERVER,
        attributes: { ...attributes, [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: path },
      },
      parent,
    );
    ctx = trace.setSpan(parent, span);
  }
  const state: RequestState = { span, owned: span !== existing, errorRecorded: false };
  setRequestState(req, state);

  const finishCapture = once(() => {
    const { capture } = options;
    // A reused span may have been ended by its instrumentation already.
    if (capture === undefined || !span.isRecording()) return;
    recordCapture(span, capture, req, tap?.body(), res.statusCode, options.maxCaptureBytes);
  });
  // A span sampled out records nothing, so there is nothing to capture for it.
  const tap =
    options.capture === undefined || !span.isRecording()
      ? undefined
      : new ResponseTap(res, options.maxCaptureBytes, finishCapture);

  if (state.owned) {
    const end = once(() => {
      try {
        finishCapture();
        endOwnedSpan(state, req, res);
      } catch (error) {
        expressDiag.error('ending the request span failed', error);
      }
    });
    res.once('finish', end);
    // `close` without `finish`: the client went away before the response was complete.
    res.once('close', end);
  }

  ctx = withIdentityBaggage(ctx, identity);
  // Listeners added later (a body parser's `data`/`end`) run in this context, so handlers behind
  // them still see the span and baggage. A no-op for emitters an HTTP instrumentation bound already.
  context.bind(ctx, req);
  context.bind(ctx, res);
  return ctx;
}
