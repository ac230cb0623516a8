import type { EvaluationTrace } from '@aqm/wire';
import type { MaskFunction } from '../privacy/mask.js';
import { TextSanitizer } from '../privacy/text-sanitizer.js';
import type { ReadableSpan } from '../sdk-types.js';
import { attempt } from './attempt.js';
import { type ContentLoss, type ContentLossNotice, warnIfContentLost } from './content-loss.js';
import type { MetadataValue } from './conventions/types.js';
import { isoOf } from './iso-time.js';
import type { LlmLogRecord } from './llm-log-record.js';
import { choosePrompt, type PromptChoice } from './prompt-choice.js';
import { type AqmTraceValues, aqmTraceValues } from './record-attributes.js';
import { modelAndProvider, traceResponse } from './record-content.js';
import { deploymentString, MAX_CONTEXT_ITEMS, traceContext, traceIdentity } from './record-context.js';
import { traceMetadata } from './record-metadata.js';
import { recordSizeFloor } from './record-size-floor.js';
import { traceStatus } from './record-status.js';
import { traceUsage } from './record-usage.js';
import { structureTrace, type TraceStructure } from './trace-structure.js';
import { toWireSpan } from './wire-span.js';

/** How a trace becomes a record. */
export interface RecordOptions {
  /** Overrides `deployment.environment.name` of the spans (request span first) or their resource. */
  environment?: string | undefined;
  /** Overrides `service.version` of the spans (request span first) or their resource. */
  appVersion?: string | undefined;
  /** Longer strings are cut to this many characters plus a `…[truncated N chars]` marker. */
  maxValueChars: number;
  /**
   * Applied to prompt, response, context items, error messages, ids, metadata and every string
   * attribute; a throwing mask blanks the value.
   */
  mask?: MaskFunction | undefined;
  /** Where the one-time warning about content lost for want of log records goes. */
  contentLoss?: ContentLossNotice;
}

/** What a trace whose metadata cannot be read contributes (shared: it is only iterated). */
const NO_METADATA: ReadonlyMap<string, MetadataValue> = new Map();

/** What a trace whose `aqm.*` attributes cannot be read contributes. */
const NO_AQM_VALUES: AqmTraceValues = {
  userId: undefined,
  sessionId: undefined,
  metadata: [],
  tags: undefined,
};

/** What a trace whose prompt cannot be read contributes. */
const NO_PROMPT: PromptChoice = { prompt: undefined, wrapping: [] };

/** Retrieved documents, then what wrapped the question in the model's message, without repeats. */
function withWrapping(documents: string[] | undefined, wrapping: readonly string[]): string[] | undefined {
  if (wrapping.length === 0) return documents;
  const items = [...(documents ?? [])];
  for (const item of wrapping)
    if (items.length < MAX_CONTEXT_ITEMS && !items.includes(item)) items.push(item);
  return items;
}

function assemble(trace: TraceStructure, options: RecordOptions, nowMs: number): EvaluationTrace {
  const sanitizer = new TextSanitizer({ maxValueChars: options.maxValueChars, mask: options.mask });
  const documents = attempt(() => traceContext(trace), undefined);
  const { prompt, wrapping } = attempt(() => choosePrompt(trace, documents ?? []), NO_PROMPT);
  const response = attempt(() => traceResponse(trace), '');
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  for (const view of trace.views) {
    startMs = Math.min(startMs, view.startMs);
    endMs = Math.max(endMs, view.endMs);
  }
  const status = traceStatus(trace);
  const record: EvaluationTrace = {
    traceId: attempt(() => trace.top.span.spanContext().traceId, ''),
    prompt: sanitizer.clean(prompt ?? '', 'prompt'),
    response: sanitizer.clean(response, 'response'),
    startTime: isoOf(startMs, nowMs),
    endTime: isoOf(endMs, nowMs),
    status: status.status,
  };
  if (status.errorMessage !== undefined)
    record.errorMessage = sanitizer.clean(status.errorMessage, 'errorMessage');
  const { model, provider } = modelAndProvider(trace);
  if (model !== undefined) record.model = sanitizer.truncate(model);
  if (provider !== undefined) record.provider = sanitizer.truncate(provider);
  const usage = attempt(() => traceUsage(trace), undefined);
  if (usage !== undefined) record.usage = usage;
  const context = withWrapping(documents, wrapping);
  if (context !== undefined) record.context = context.map((item) => sanitizer.clean(item, 'context'));
  // Values given through @aqm/otel (`aqm.*`) win over the conventions' ids (headers, framework metadata).
  const ours = attempt(() => aqmTraceValues(trace), NO_AQM_VALUES);
  const identity = traceIdentity(trace);
  const sessionId = ours.sessionId ?? identity.sessionId;
  const userId = ours.userId ?? identity.userId;
  if (sessionId !== undefined) record.sessionId = sanitizer.clean(sessionId, 'sessionId');
  if (userId !== undefined) record.userId = sanitizer.clean(userId, 'userId');
  const environment =
    options.environment ?? deploymentString(trace, ['deployment.environment.name', 'deployment.environment']);
  if (environment !== undefined) record.environment = sanitizer.truncate(environment);
  const appVersion = options.appVersion ?? deploymentString(trace, ['service.version']);
  if (appVersion !== undefined) record.appVersion = sanitizer.truncate(appVersion);
  const metadata: Record<string, string | number | boolean> = {};
  for (const [key, value] of attempt(() => traceMetadata(trace, ours), NO_METADATA)) {
    // Keys travel as text too: repaired (and bounded) like the attribute keys of wire spans.
    metadata[sanitizer.truncate(key)] =
      typeof value === 'string' ? sanitizer.clean(value, `metadata.${key}`) : value;
  }
  if (Object.keys(metadata).length > 0) record.metadata = metadata;
  record.spans = [];
  for (const view of trace.views) {
    const span = attempt(() => toWireSpan(view, sanitizer, nowMs), undefined);
    if (span !== undefined) record.spans.push(span);
  }
  return record;
}

/** A trace known to become a record, before the record is built. */
export interface PendingRecord {
  /** A lower bound of the record's JSON bytes (see {@link recordSizeFloor}). */
  minBytes: number;
  /** Why the record goes out with no content: its instrumentation-openai spans got none. */
  contentLoss: ContentLoss | undefined;
  /** Builds the record; `undefined` only if something unreadable made it fail as a whole. */
  build(): EvaluationTrace | undefined;
}

/**
 * The first, cheap half of mapping: reads and classifies a trace's spans (and the log records
 * joined to them), and says whether it becomes a record at all: `undefined` when the trace has no
 * model call and no top-level interaction carrying both a prompt and a response. The expensive
 * half, `build()`, can then be skipped when the queue has no room. Never throws.
 *
 * @example
 * const pending = prepareTraceRecord(spans, [], { maxValueChars: 32_768 });
 * if (pending !== undefined && queueHasRoomFor(pending.minBytes)) queue.push(pending.build());
 */
export function prepareTraceRecord(
  spans: readonly ReadableSpan[],
  logs: readonly LlmLogRecord[],
  options: RecordOptions,
): PendingRecord | undefined {
  try {
    const nowMs = Date.now();
    const trace = structureTrace(spans, logs, nowMs);
    if (trace === undefined) return undefined;
    const contentLoss = attempt(() => warnIfContentLost(trace, options.contentLoss), undefined);
    return {
      contentLoss,
      minBytes: recordSizeFloor(trace, options.maxValueChars, options.mask !== undefined),
      build: () => attempt(() => assemble(trace, options, nowMs), undefined),
    };
  } catch {
    return undefined;
  }
}

/**
 * One trace's spans (and the log records joined to them) → the wire record, or `undefined` when
 * the trace has no model call and no top-level interaction carrying both a prompt and a response.
 * Never throws: a span or value that cannot be read is skipped, and a record is never dropped for
 * its content alone.
 *
 * @example
 * const record = buildTraceRecord(spans, [], { maxValueChars: 32_768 });
 * if (record !== undefined) queue.push(record);
 */
export function buildTraceRecord(
  spans: readonly ReadableSpan[],
  logs: readonly LlmLogRecord[],
  options: RecordOptions,
): EvaluationTrace | undefined {
  return prepareTraceRecord(spans, logs, options)?.build();
}
