import { register } from 'node:module';
import { registerAqm } from '@aqm/otel';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';

/**
 * OpenTelemetry for the chat app, in code: `registerAqm()` registers a tracer provider whose
 * `AqmSpanProcessor` sends each LLM interaction to AQM (plus a logger provider, since the OpenAI
 * instrumentation reports message content as log records), and the official OpenAI
 * instrumentation traces every `openai` call.
 *
 * Call it before `openai` is imported: the instrumentation patches the module as it loads.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where the traces go.
 * @returns {{ flush(): Promise<void>, shutdown(): Promise<void> }}
 * @example
 * const tracing = setUpTracing({ apiKey, baseUrl, applicationId });
 * const { createChatApp } = await import('./app.mjs');
 */
export function setUpTracing({ apiKey, baseUrl, applicationId }) {
  // In an ES module app, patching a module as it loads needs this loader hook.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const registration = registerAqm({ apiKey, baseUrl, applicationId, environment: 'example' });
  const unregisterInstrumentations = registerInstrumentations({
    instrumentations: [new OpenAIInstrumentation({ captureMessageContent: true })],
  });
  return {
    // Resolves once every finished trace was accepted by the service (or given up).
    flush: () => registration.processor.forceFlush(),
    shutdown: async () => {
      unregisterInstrumentations();
      await registration.shutdown();
    },
  };
}
