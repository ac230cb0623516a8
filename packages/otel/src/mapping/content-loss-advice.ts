import { hasAqmLogProcessor, registeredLoggerProvider } from '../setup/logger-provider.js';

// The explanations of content lost for want of log records, one per setup the process shows, each
// naming the cause and the fix. One line each: they are printed on stderr.

const SEEN =
  'Spans of @opentelemetry/instrumentation-openai arrive without prompt or response, so their traces are ' +
  'sent with an empty prompt and response: that instrumentation sends the content as log records, and';

/** A copy of api-logs other than the registered one handed the instrumentation its logger. */
export const TWO_API_LOGS_COPIES =
  `${SEEN} the registered LoggerProvider has an AqmLogRecordProcessor, but no gen_ai log record reached ` +
  'it: the instrumentation got its logger from another copy of @opentelemetry/api-logs than the one the ' +
  'provider was registered through (a logger handed out before registration only follows a provider ' +
  'registered through its own copy). Fix: one version of @opentelemetry/api-logs and ' +
  '@opentelemetry/sdk-logs in the app, the one @opentelemetry/sdk-node and @opentelemetry/instrumentation ' +
  'depend on (`npm ls @opentelemetry/api-logs` lists the copies; install that version, or remove both ' +
  'from package.json, then `npm dedupe`).';

/** A provider is registered (NodeSDK's default: OTLP export only) without our processor. */
export const NO_AQM_LOG_PROCESSOR =
  `${SEEN} the registered LoggerProvider has no AqmLogRecordProcessor (NodeSDK's default logs setup only ` +
  'exports log records over OTLP). Fix: call `registerAqm()` after `sdk.start()` instead of passing ' +
  "`spanProcessors` (it adds the processors to NodeSDK's providers and keeps NodeSDK's exporters), or " +
  'pass `logRecordProcessors: [new AqmLogRecordProcessor(processor)]` to NodeSDK (that replaces its ' +
  'default OTLP log export: list `new BatchLogRecordProcessor(new OTLPLogExporter())` too to keep it).';

/** Nothing registered a logger provider. */
export const NO_LOGGER_PROVIDER =
  `${SEEN} no LoggerProvider is registered (NodeSDK with OTEL_LOGS_EXPORTER=none, or a tracer provider ` +
  'set up by hand). Fix: call `registerAqm()` (after `sdk.start()` with NodeSDK): it registers a ' +
  'LoggerProvider with an AqmLogRecordProcessor; or pass `logRecordProcessors: [new ' +
  'AqmLogRecordProcessor(processor)]` to NodeSDK.';

/** A provider this package cannot look into. */
export const UNKNOWN_LOGS_SETUP =
  `${SEEN} no gen_ai log record has reached an AqmLogRecordProcessor. Likely causes: the registered ` +
  'LoggerProvider has no AqmLogRecordProcessor, or the app has two copies of @opentelemetry/api-logs ' +
  '(`npm ls @opentelemetry/api-logs`). Fix: add `new AqmLogRecordProcessor(processor)` to the ' +
  "LoggerProvider's processors (NodeSDK: `logRecordProcessors`, or `registerAqm()` after `sdk.start()`), " +
  'and keep one version of @opentelemetry/api-logs.';

/** The forwarder got spans, and no gen_ai log record at /v1/logs. */
export const FORWARDER_NO_LOGS =
  'Spans of @opentelemetry/instrumentation-openai arrive without prompt or response and no gen_ai log ' +
  'record has arrived at /v1/logs, so their traces are sent with an empty prompt and response: that ' +
  'instrumentation sends the content as log records, and the app does not export them here. Fix, in the ' +
  'app: export log records over OTLP to this forwarder too (NodeSDK: OTEL_LOGS_EXPORTER unset or otlp, ' +
  'and OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, pointing here), with ' +
  'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true. /metrics counts these traces in ' +
  'aqm_forwarder_traces_without_content_total.';

/** The log records arrive, without content. */
export const CAPTURE_OFF_WARNING =
  'Spans of @opentelemetry/instrumentation-openai arrive with their log records but without prompt or ' +
  'response: its message content capture is off (the default), so these traces are sent with an empty ' +
  'prompt and response. Fix: `new OpenAIInstrumentation({ captureMessageContent: true })`, or set ' +
  'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.';

/**
 * The explanation of content lost for want of log records. In the forwarder, the app must export
 * them. In the app, it depends on the logger provider it registered: none, one without an
 * `AqmLogRecordProcessor`, or one with it that the instrumentation's logger does not reach.
 */
export function noLogsExplanation(receivesOtlp: boolean): string {
  if (receivesOtlp) return FORWARDER_NO_LOGS;
  const provider = registeredLoggerProvider();
  if (provider === undefined) return NO_LOGGER_PROVIDER;
  const ours = hasAqmLogProcessor(provider);
  if (ours === true) return TWO_API_LOGS_COPIES;
  if (ours === false) return NO_AQM_LOG_PROCESSOR;
  return UNKNOWN_LOGS_SETUP;
}
