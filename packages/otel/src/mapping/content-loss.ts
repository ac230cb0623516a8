import { aqmDiag } from '../diag.js';
import { scopeName } from './conventions/read-helpers.js';
import { promptOf, responseOf } from './record-content.js';
import type { TraceStructure } from './trace-structure.js';

/** The instrumentation that puts message content on log records rather than on its spans. */
const LOG_CONTENT_SCOPE = '@opentelemetry/instrumentation-openai';

interface ContentLossState {
  /** A `gen_ai.*` log record reached an AqmLogRecordProcessor. */
  logSeen: boolean;
  warned: boolean;
  /** Said that log records arrive without content (capture turned off). */
  warnedCaptureOff: boolean;
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

/**
 * Says once, through `diag`, that content is being lost: the trace has a model call of
 * `@opentelemetry/instrumentation-openai` with no content of its own and no joined log record,
 * and no `gen_ai.*` log record ever reached an `AqmLogRecordProcessor` in this process. And,
 * once, when its log records do arrive but carry no content (capture off).
 */
export function warnIfContentLost(trace: TraceStructure): void {
  const current = state();
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
}
