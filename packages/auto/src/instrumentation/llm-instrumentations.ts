import type { TracerProvider } from '@opentelemetry/api';
import type { LoggerProvider } from '@opentelemetry/api-logs';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { anthropicBridge } from './anthropic-bridge.js';

/**
 * Creates and enables the instrumentations of the `openai` package (the official
 * `@opentelemetry/instrumentation-openai`, its message content on log records sent to
 * `loggerProvider`) and of `@anthropic-ai/sdk` (`@traceloop/instrumentation-anthropic`), with
 * spans from `tracerProvider`. Returns the function that disables them again.
 *
 * @example
 * const disable = enableLlmInstrumentations({ captureContent: true, tracerProvider, loggerProvider });
 */
export function enableLlmInstrumentations(settings: {
  captureContent: boolean;
  tracerProvider: TracerProvider;
  loggerProvider: LoggerProvider;
}): () => void {
  const { captureContent, tracerProvider, loggerProvider } = settings;
  const openai = new OpenAIInstrumentation({ captureMessageContent: captureContent });
  // Its constructor also reads OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT from process.env;
  // the environment startAuto was given decides.
  openai.setConfig({ captureMessageContent: captureContent });
  const traceloop = new AnthropicInstrumentation({ enabled: false, traceContent: captureContent });
  traceloop.setTracerProvider(tracerProvider);
  const instrumentations: Instrumentation[] = [openai, anthropicBridge(traceloop)];
  const restoreAnthropicEnv = quietAnthropicNativeSpans();
  const disable = registerInstrumentations({ instrumentations, tracerProvider, loggerProvider });
  return () => {
    disable();
    restoreAnthropicEnv();
  };
}

/**
 * Recent `@anthropic-ai/sdk` versions make a span of their own for each call, inside Traceloop's
 * (metadata only: no prompt or answer). Both carry the call's token counts, which the trace's usage
 * would then count twice, so the SDK's own spans are switched off through its documented variable,
 * unless the app set that variable itself. Returns the undo.
 */
function quietAnthropicNativeSpans(): () => void {
  if (process.env.ANTHROPIC_OPEN_TELEMETRY !== undefined) return () => {};
  process.env.ANTHROPIC_OPEN_TELEMETRY = 'false';
  return () => {
    if (process.env.ANTHROPIC_OPEN_TELEMETRY === 'false') delete process.env.ANTHROPIC_OPEN_TELEMETRY;
  };
}
