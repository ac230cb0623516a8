// Vercel AI SDK calls with telemetry on, sent to AQM by AqmSpanProcessor: against the local
// service and the fake model unless AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import { AqmSpanProcessor } from '@aqm/otel';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { ask } from './assistant.mjs';

const REQUESTS = [
  { sessionId: 'visitor-1', question: 'Where can I find the lounges at the airport?' },
  { sessionId: 'visitor-2', question: 'Which gate does flight LH440 leave from?', withTools: true },
];

await runExample('vercel-ai', async () => {
  const env = await startLocalEnvironment({ name: 'example-vercel-ai' });
  try {
    console.log(describeEnvironment(env));
    // The AI SDK records its spans on the global tracer provider: register one with AQM's processor.
    const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor(env.aqm)] });
    provider.register();

    for (const request of REQUESTS) {
      const answer = await ask(env.llm, request);
      console.log(
        `[${request.sessionId}] user: ${request.question}\n[${request.sessionId}] assistant: ${answer}`,
      );
    }

    await provider.forceFlush(); // resolves once the service accepted the traces
    await provider.shutdown();
    await printRecordedTraces(env, { expectedTraces: REQUESTS.length });
  } finally {
    await env.close();
  }
});
