import { AqmSpanProcessor } from '@aqm/otel';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * The app's tracing as it was before AQM: a `NodeTracerProvider` exporting to its own backend
 * (an in-memory exporter here, so the example can show what it received) — plus the one line
 * that adds AQM.
 *
 * @param {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where AQM traces go.
 * @returns {{ provider: NodeTracerProvider, ownExporter: InMemorySpanExporter }}
 * @example
 * const { provider, ownExporter } = setUpTracing(aqm);
 */
export function setUpTracing(aqm) {
  const ownExporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(ownExporter), // the app's existing pipeline, unchanged
      new AqmSpanProcessor(aqm), // ← the one line that adds AQM (options default to AQM_* variables)
    ],
  });
  provider.register();
  return { provider, ownExporter };
}
