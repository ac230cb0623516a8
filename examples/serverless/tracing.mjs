import { AqmSpanProcessor } from '@aqm/otel';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * The function's tracing, set up once per cold start (module scope): the connection comes from
 * AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID in the function's environment. `serverless: true`
 * arms no timer: traces wait for the flush at the end of each invocation, which sends them all in one
 * request, instead of a batch timer or an idle timer that would fire only after the platform froze
 * the process (in the middle of a later invocation, or never).
 */
export const processor = new AqmSpanProcessor({ serverless: true });

/** The provider, registered globally so `withLlmSpan` and instrumentations find it. */
export const provider = new NodeTracerProvider({ spanProcessors: [processor] });
provider.register();
