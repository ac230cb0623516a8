import { z } from 'zod';
import { expects, isoDateTimeSchema, pageQueryShape, refineRange } from './common.js';
import { evaluationResultSchema } from './evaluations.js';
import { pathNestedDeeperThan } from './json-walk.js';
import { MAX_ATTRIBUTE_DEPTH, MAX_SEARCH_CHARS, MAX_TRACES_PER_SUBMISSION } from './limits.js';

export { MAX_BODY_BYTES, MAX_TRACES_PER_SUBMISSION } from './limits.js';

/** Outcomes of a submitted trace: `success` or `error`. */
export const TRACE_STATUSES = ['success', 'error'] as const;
/** A trace's `status`: `success` or `error`. */
export type TraceStatus = (typeof TRACE_STATUSES)[number];
/** Span kinds, as in OpenTelemetry: `internal`, `server`, `client`, `producer`, `consumer`. */
export const SPAN_KINDS = ['internal', 'server', 'client', 'producer', 'consumer'] as const;
/** A span's `kind`. */
export type SpanKindName = (typeof SPAN_KINDS)[number];
/** Span status codes, as in OpenTelemetry: `unset`, `ok`, `error`. */
export const SPAN_STATUS_CODES = ['unset', 'ok', 'error'] as const;

/** A trace id: 32 lowercase hex characters, as in W3C Trace Context. */
export const traceIdSchema = z
  .string({ error: expects('must be a string of 32 lowercase hex characters') })
  .regex(/^[0-9a-f]{32}$/, { message: 'must be 32 lowercase hex characters' });
/** A span id: 16 lowercase hex characters. */
export const spanIdSchema = z
  .string({ error: expects('must be a string of 16 lowercase hex characters') })
  .regex(/^[0-9a-f]{16}$/, { message: 'must be 16 lowercase hex characters' });

/**
 * Span and event attributes: an object of JSON values (OpenTelemetry's are strings, numbers,
 * booleans and arrays of them). Nesting is bounded, so a hostile value cannot overflow the stack
 * of whoever serialises it later; the 400 names the first path too deep.
 */
const jsonRecordSchema = z
  .record(z.string(), z.unknown(), { error: expects('must be an object') })
  .superRefine((record, ctx) => {
    // The record itself is level 0: a value directly in it that is an object or array is level 1.
    const path = pathNestedDeeperThan(record, MAX_ATTRIBUTE_DEPTH);
    if (path !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `nests deeper than ${MAX_ATTRIBUTE_DEPTH} levels of objects and arrays`,
      });
    }
  });

/** An event of a span: a name, an ISO time and optional attributes. */
export const spanEventSchema = z.object({
  name: z.string({ error: expects('must be a string') }),
  time: isoDateTimeSchema,
  attributes: jsonRecordSchema.optional(),
});
/** An event of a span: a name, an ISO time and optional attributes. */
export type SpanEvent = z.infer<typeof spanEventSchema>;

/** A span of a submitted trace (contract decision). */
export const spanSchema = z.object({
  spanId: spanIdSchema,
  parentSpanId: spanIdSchema.optional(),
  name: z.string({ error: expects('must be a string') }),
  kind: z.enum(SPAN_KINDS, { error: expects(`must be one of ${SPAN_KINDS.join(', ')}`) }),
  startTime: isoDateTimeSchema,
  endTime: isoDateTimeSchema,
  status: z.object(
    {
      code: z.enum(SPAN_STATUS_CODES, { error: expects(`must be one of ${SPAN_STATUS_CODES.join(', ')}`) }),
      message: z.string().optional(),
    },
    { error: expects('must be an object with a code') },
  ),
  attributes: jsonRecordSchema,
  events: z.array(spanEventSchema).optional(),
});
/** A span of a submitted trace (contract decision). */
export type Span = z.infer<typeof spanSchema>;

const countSchema = z.number({ message: 'must be a non-negative integer' }).int().nonnegative();

/** Token usage of a trace, summed over its model calls. */
export const usageSchema = z.object({
  inputTokens: countSchema.optional(),
  outputTokens: countSchema.optional(),
  totalTokens: countSchema.optional(),
});
/** Token usage of a trace, summed over its model calls. */
export type Usage = z.infer<typeof usageSchema>;

/** One prompt/response trace submitted for scoring (contract decision). */
export const evaluationTraceSchema = z
  .object({
    traceId: traceIdSchema,
    prompt: z.string({ error: expects('must be a string') }),
    response: z.string({ error: expects('must be a string') }),
    startTime: isoDateTimeSchema,
    endTime: isoDateTimeSchema,
    status: z.enum(TRACE_STATUSES, { error: expects(`must be one of ${TRACE_STATUSES.join(', ')}`) }),
    errorMessage: z.string().optional(),
    model: z.string().optional(),
    provider: z.string().optional(),
    usage: usageSchema.optional(),
    context: z.array(z.string({ message: 'must be a string' })).optional(),
    sessionId: z.string().optional(),
    userId: z.string().optional(),
    environment: z.string().optional(),
    appVersion: z.string().optional(),
    metadata: z
      .record(
        z.string(),
        z.union([z.string(), z.number(), z.boolean()], { message: 'must be a string, number or boolean' }),
        {
          message: 'must be an object of strings, numbers and booleans',
        },
      )
      .optional(),
    spans: z.array(spanSchema).optional(),
  })
  .superRefine((trace, ctx) => {
    if (trace.endTime < trace.startTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'must be on or after startTime' });
    }
  });
/** One prompt/response trace as sent in `POST /applications/{id}/evaluations`. */
export type EvaluationTrace = z.input<typeof evaluationTraceSchema>;

/** `POST /applications/{id}/evaluations` body. */
export const submitEvaluationsBodySchema = z.object({
  traces: z
    .array(evaluationTraceSchema, { error: expects('must be an array of traces') })
    .min(1, { message: `must hold 1 to ${MAX_TRACES_PER_SUBMISSION} traces` })
    .max(MAX_TRACES_PER_SUBMISSION, { message: `must hold 1 to ${MAX_TRACES_PER_SUBMISSION} traces` }),
});
/** `POST /applications/{id}/evaluations` body as sent: `traces`, 1 to {@link MAX_TRACES_PER_SUBMISSION}. */
export type SubmitEvaluationsBody = z.input<typeof submitEvaluationsBodySchema>;

/** `POST /applications/{id}/evaluations` response data. */
export const submitEvaluationsResultSchema = z.object({
  accepted: z.number().int(),
  traceIds: z.array(z.string()),
});
/** `POST /applications/{id}/evaluations` data: the number `accepted` and their `traceIds`. */
export type SubmitEvaluationsResult = z.infer<typeof submitEvaluationsResultSchema>;

/** An item of `GET /applications/{id}/traces` (contract decision). */
export const traceSummarySchema = z.object({
  traceId: z.string(),
  applicationId: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  spanCount: z.number().int(),
  status: z.enum(TRACE_STATUSES),
  prompt: z.string(),
  response: z.string(),
});
/** An item of `GET /applications/{id}/traces`. */
export type TraceSummary = z.infer<typeof traceSummarySchema>;

/**
 * `GET /applications/{id}/traces/{traceId}`: the spec's fields, plus what was submitted with
 * the trace (prompt, response, model, usage, ...).
 */
export const traceSchema = traceSummarySchema.extend({
  spans: z.array(spanSchema),
  // The spec gives it "when evaluations exist for the trace": this service always sends it ([] when
  // none), but a client of the real service must not count on it.
  evaluationResults: z.array(evaluationResultSchema).optional(),
  errorMessage: z.string().optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  usage: usageSchema.optional(),
  context: z.array(z.string()).optional(),
  sessionId: z.string().optional(),
  userId: z.string().optional(),
  environment: z.string().optional(),
  appVersion: z.string().optional(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
/** `GET /applications/{id}/traces/{traceId}` data: the trace with its spans and evaluation results. */
export type Trace = z.infer<typeof traceSchema>;

/** `GET /applications/{id}/traces` query (contract decision). */
export const listTracesQuerySchema = z
  .object({
    ...pageQueryShape,
    start: isoDateTimeSchema.optional(),
    end: isoDateTimeSchema.optional(),
    status: z.enum(TRACE_STATUSES, { message: `must be one of ${TRACE_STATUSES.join(', ')}` }).optional(),
    search: z
      .string()
      .max(MAX_SEARCH_CHARS, { message: `must be at most ${MAX_SEARCH_CHARS} characters` })
      .optional(),
  })
  .superRefine(refineRange);
/** `GET /applications/{id}/traces` query as sent: paging, time range, `status` and `search`. */
export type ListTracesQuery = z.input<typeof listTracesQuerySchema>;
