import type { DiagLogger } from '@opentelemetry/api';
import { alert, aqmDiag } from '../diag.js';
import { CAPTURE_OFF_WARNING, noLogsExplanation } from './content-loss-advice.js';
import { scopeName } from './conventions/read-helpers.js';
import { promptOf, responseOf } from './record-content.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

export { CAPTURE_OFF_WARNING } from './content-loss-advice.js';

/** The instrumentation that puts message content on log records rather than on its spans. */
const LOG_CONTENT_SCOPE = '@opentelemetry/instrumentation-openai';
/** The Anthropic SDK's own spans (`@anthropic-ai/sdk` ≥ 0.134); other platforms' clients add `.<platform>`. */
const ANTHROPIC_SDK_SCOPE = 'com.anthropic.sdk.typescript';

/** The text of the warning when the Anthropic SDK's own spans arrive without content. */
export const ANTHROPIC_METADATA_ONLY_WARNING =
  "Spans of the Anthropic SDK's own OpenTelemetry tracing (@anthropic-ai/sdk, scope " +
  `${ANTHROPIC_SDK_SCOPE}) arrive without prompt or response: its traces content mode is ` +
  "'metadata_only' by default, so these traces are sent with an empty prompt and response. Fix: " +
  "`new Anthropic({ openTelemetry: { traces: { contentMode: 'content' } } })`, or set " +
  'ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content (read only by a client given no ' +
  '`openTelemetry` option).';

/** Why a trace's model call has no content: no log record joined it, or its records carry none. */
export type ContentLoss = 'no-log-records' | 'capture-off';

/** Where the warning goes, and which explanation fits. */
export interface ContentLossNotice {
  /** The pipeline's logger; the package's own one prints on stderr when no logging is set up. */
  logger?: DiagLogger;
  /** Set by aqm-forwarder: the spans came over OTLP, so the app must export its log records too. */
  receivesOtlp?: boolean;
}

interface ContentLossState {
  /** A `gen_ai.*` log record reached an AqmLogRecordProcessor. */
  logSeen: boolean;
  warned: boolean;
  /** Said that log records arrive without content (capture turned off). */
  warnedCaptureOff: boolean;
  /** Said that the Anthropic SDK's spans arrive without content (content mode `metadata_only`). */
  warnedAnthropicMetadataOnly?: boolean;
}

// Shared through a registered symbol, so that the ESM and CJS builds of this package, both loaded
// in one app, see the same records and warn once between them.
const STATE_KEY = Symbol.for('@aqm/otel.contentLoss');

function state(): ContentLossState {
  const holder = globalThis as { [STATE_KEY]?: ContentLossState };
  holder[STATE_KEY] ??= { logSeen: false, warned: false, warnedCaptureOff: false };
  return holder[STATE_KEY];
}

/** Called for every `gen_ai.*` log record given to `AqmLogRecordProcessor` or received by @aqm/forwarder. */
export function noteContentLogRecord(): void {
  state().logSeen = true;
}

function isAnthropicSdkSpan(view: SpanView): boolean {
  const scope = scopeName(view);
  return scope === ANTHROPIC_SDK_SCOPE || scope.startsWith(`${ANTHROPIC_SDK_SCOPE}.`);
}

function hasContent(view: SpanView): boolean {
  return promptOf(view) !== undefined || responseOf(view) !== undefined;
}

/**
 * Says once that the Anthropic SDK's spans carry no content, when no model call of the trace has
 * any: beside an instrumentation that records the content (OpenInference, Traceloop), the SDK's
 * own metadata-only spans lose nothing.
 */
function warnIfAnthropicMetadataOnly(
  trace: TraceStructure,
  current: ContentLossState,
  logger: DiagLogger,
): void {
  if (current.warnedAnthropicMetadataOnly === true) return;
  if (!trace.modelCalls.some(isAnthropicSdkSpan) || trace.modelCalls.some(hasContent)) return;
  current.warnedAnthropicMetadataOnly = true;
  alert(logger, 'warn', 'anthropic-metadata-only', ANTHROPIC_METADATA_ONLY_WARNING);
}

/** Whether this process's environment turns the GenAI instrumentations' content capture off. */
function captureTurnedOffHere(): boolean {
  try {
    const value = process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
    return value !== undefined && value.trim().toLowerCase() === 'false';
  } catch {
    return false;
  }
}

/** Why a model call of `@opentelemetry/instrumentation-openai` in the trace has no content, if one has none. */
export function contentLossOf(trace: TraceStructure): ContentLoss | undefined {
  for (const view of trace.modelCalls) {
    if (scopeName(view) !== LOG_CONTENT_SCOPE) continue;
    if (hasContent(view)) continue;
    return view.logs.length === 0 ? 'no-log-records' : 'capture-off';
  }
  return undefined;
}

/**
 * Says once per process, on stderr when no logging is set up (as delivery failures are), that
 * content is being lost, with the cause this process shows and the fix: the trace has a model call
 * of `@opentelemetry/instrumentation-openai` with no content of its own and no joined log record,
 * and no `gen_ai.*` log record ever reached an `AqmLogRecordProcessor` (or the forwarder). And,
 * once, when its log records do arrive but carry no content (capture off), or when the Anthropic
 * SDK's own spans carry none (its default content mode). Returns why the trace
 * has no content, for the pipeline's count.
 */
export function warnIfContentLost(
  trace: TraceStructure,
  notice: ContentLossNotice = {},
): ContentLoss | undefined {
  const current = state();
  const logger = notice.logger ?? aqmDiag;
  warnIfAnthropicMetadataOnly(trace, current, logger);
  const loss = contentLossOf(trace);
  if (loss === undefined) return undefined;
  if (loss === 'no-log-records' && !current.logSeen && !current.warned) {
    current.warned = true;
    alert(logger, 'warn', 'content-lost', noLogsExplanation(notice.receivesOtlp === true));
  } else if (loss === 'capture-off' && !current.warnedCaptureOff) {
    current.warnedCaptureOff = true;
    // Turned off on purpose in this process's environment (to keep content out): said through the
    // logger only. Off by default, or decided elsewhere (an app sending to the forwarder): on stderr.
    if (notice.receivesOtlp !== true && captureTurnedOffHere()) logger.warn(CAPTURE_OFF_WARNING);
    else alert(logger, 'warn', 'content-capture-off', CAPTURE_OFF_WARNING);
  }
  return loss;
}

/** Forgets what was seen and said (tests). */
export function resetContentLossState(): void {
  const current = state();
  current.logSeen = false;
  current.warned = false;
  current.warnedCaptureOff = false;
  current.warnedAnthropicMetadataOnly = false;
}
