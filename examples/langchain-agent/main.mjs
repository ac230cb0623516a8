// A LangChain agent with a tool, traced by AqmCallbackHandler and sent to AQM by AqmSpanProcessor:
// against the local service and the fake model unless AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import { AqmCallbackHandler } from '@aqm/langchain';
import { AqmSpanProcessor } from '@aqm/otel';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { createTravelAgent } from './agent.mjs';

const QUESTIONS = [
  { sessionId: 'traveller-1', question: 'Is flight LH440 on time today?' },
  { sessionId: 'traveller-2', question: 'What is the status of BA287?' },
];

await runExample('langchain-agent', async () => {
  const env = await startLocalEnvironment({ name: 'example-langchain-agent' });
  try {
    console.log(describeEnvironment(env));
    // The tracing setup: one provider, with the processor that sends LLM interactions to AQM.
    const provider = new NodeTracerProvider({ spanProcessors: [new AqmSpanProcessor(env.aqm)] });
    provider.register();

    const agent = createTravelAgent(env.llm);
    const handler = new AqmCallbackHandler();
    for (const { sessionId, question } of QUESTIONS) {
      const answer = await agent.invoke(
        { question },
        { callbacks: [handler], metadata: { session_id: sessionId } },
      );
      console.log(`[${sessionId}] user: ${question}\n[${sessionId}] agent: ${answer}`);
    }

    await provider.forceFlush(); // resolves once the service accepted the traces
    await provider.shutdown();
    await printRecordedTraces(env, { expectedTraces: QUESTIONS.length });
  } finally {
    await env.close();
  }
});
