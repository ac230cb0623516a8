import { aqmDiag } from '../diag.js';
import { scopeName } from './conventions/read-helpers.js';
import { promptOf, responseOf } from './record-content.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** The instrumentation that puts message content on log records rather than on its spans. */
const LOG_CONTENT_SCOPE = '@opentelemetry/instrumentation-openai';
/** The Anthropic SDK's own spans (`@anthropic-ai/sdk` ≥ 0.134); other platforms' clients add `.<platform>`. */
const ANTHROPIC_SDK_SCOPE = 'com.anthropic.sdk.typescript';

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

/** The text of the warning: what was seen, the likely causes, the fix. */
export const CONTENT_LOSS_WARNING =
  'Spans of @opentelemetry/instrumentation-openai arrive without prompt or response, and no gen_ai log ' +
  'record has reached an AqmLogRecordProcessor: that instrumentation sends message content as log ' +
  'records, so these traces are sent with an empty prompt and response. Likely causes: no logger ' +
  'provider is registered; NodeSDK was started without `logRecordProcessors`; or the app has two ' +
  'copies of @opentelemetry/api-logs, one registered and one used by the instrumentation (check ' +
  '`npm ls @opentelemetry/api-logs`). Fix: `const processor = new AqmSpanProcessor(); new NodeSDK({ ' +
  'spanProcessors: [processor], logRecordProcessors: [new AqmLogRecordProcessor(processor)], ' +
  'instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })] })`, or ' +
  '`registerAqm()`, which registers both providers, and one version of @opentelemetry/api-logs. ' +
  'An app that sends OTLP to @aqm/forwarder must export its logs too (OTEL_LOGS_EXPORTER=otlp).';

/** The text of the warning when log records arrive, but without content. */
export const CAPTURE_OFF_WARNING =
  'Spans of @opentelemetry/instrumentation-openai arrive with their log records but without prompt or ' +
  'response: its message content capture is off (the default), so these traces are sent with an empty ' +
  'prompt and response. Fix: `new OpenAIInstrumentation({ captureMessageContent: true })`, or set ' +
  'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.';

/** The text of the warning when the Anthropic SDK's own spans arrive without content. */
export const ANTHROPIC_METADATA_ONLY_WARNING =
  "Spans of the Anthropic SDK's own OpenTelemetry tracing (@anthropic-ai/sdk, scope " +
  `${ANTHROPIC_SDK_SCOPE}) arrive without prompt or response: its traces content mode is ` +
  "'metadata_only' by default, so these traces are sent with an empty prompt and response. Fix: " +
  "`new Anthropic({ openTelemetry: { traces: { contentMode: 'content' } } })`, or set " +
  'ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content (read only by a client given no ' +
  '`openTelemetry` option).';

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
function warnIfAnthropicMetadataOnly(trace: TraceStructure, current: ContentLossState): void {
  if (current.warnedAnthropicMetadataOnly === true) return;
  if (!trace.modelCalls.some(isAnthropicSdkSpan) || trace.modelCalls.some(hasContent)) return;
  current.warnedAnthropicMetadataOnly = true;
  aqmDiag.warn(ANTHROPIC_METADATA_ONLY_WARNING);
}

/**
 * Says once, through `diag`, that content is being lost: the trace has a model call of
 * `@opentelemetry/instrumentation-openai` with no content of its own and no joined log record,
 * and no `gen_ai.*` log record ever reached an `AqmLogRecordProcessor` in this process. And,
 * once, when its log records do arrive but carry no content (capture off). And, once, when the
 * Anthropic SDK's own spans carry no content (its default content mode).
 */
export function warnIfContentLost(trace: TraceStructure): void {
  const current = state();
  warnIfAnthropicMetadataOnly(trace, current);
  if (current.warned && current.warnedCaptureOff) return;
  for (const view of trace.modelCalls) {
    if (scopeName(view) !== LOG_CONTENT_SCOPE) continue;
    if (promptOf(view) !== undefined || responseOf(view) !== undefined) continue;
    if (view.logs.length === 0 && !current.logSeen && !current.warned) {
      current.warned = true;
      aqmDiag.warn(CONTENT_LOSS_WARNING);
    } else if (view.logs.length > 0 && !current.warnedCaptureOff) {
      current.warnedCaptureOff = true;
      aqmDiag.warn(CAPTURE_OFF_WARNING);
    }
    return;
  }
}

/** Forgets what was seen and said (tests). */
export function resetContentLossState(): void {
  const current = state();
  current.logSeen = false;
  current.warned = false;
  current.warnedCaptureOff = false;
  current.warnedAnthropicMetadataOnly = false;
}
