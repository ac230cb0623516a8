// Two serverless functions run the way their platforms run them, each invocation followed by the
// moment the platform may freeze the process: an AWS Lambda handler wrapped in withAqmFlush, and a
// Next.js route handler that flushes in after(). Against the local service and the fake model
// unless AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';
import { serveRequest } from './platform.mjs';

const LAMBDA_QUESTIONS = [
  'When does the science museum open on Sundays?',
  'Is there a student discount for tickets?',
];
const ROUTE_QUESTIONS = ['Can I bring a stroller into the exhibitions?'];

await runExample('serverless', async () => {
  const env = await startLocalEnvironment({ name: 'example-serverless' });
  let provider;
  try {
    console.log(describeEnvironment(env));
    // What the platform puts in the function's environment; the modules read it at cold start.
    Object.assign(process.env, {
      AQM_BASE_URL: env.aqm.baseUrl,
      AQM_API_KEY: env.aqm.apiKey,
      AQM_APPLICATION_ID: env.aqm.applicationId,
      OPENAI_BASE_URL: env.llm.baseURL,
      OPENAI_API_KEY: env.llm.apiKey,
      OPENAI_MODEL: env.llm.model,
    });
    const tracing = await import('./tracing.mjs'); // the cold start
    provider = tracing.provider;
    const { handler } = await import('./lambda.mjs');
    const { POST } = await import('./route.mjs');
    const frozen = frozenCheck(tracing.processor);

    console.log('\nAWS Lambda (withAqmFlush):');
    for (const [index, question] of LAMBDA_QUESTIONS.entries()) {
      const event = { body: JSON.stringify({ question }) };
      const context = { awsRequestId: `local-${index + 1}`, getRemainingTimeInMillis: () => 30_000 };
      const result = await handler(event, context);
      console.log(`user: ${question}\nassistant: ${JSON.parse(result.body).answer}`);
      console.log(frozen());
    }

    console.log('\nNext.js route handler (after(() => processor.forceFlush())):');
    for (const question of ROUTE_QUESTIONS) {
      const request = new Request('http://localhost/api/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
      await serveRequest(POST, request, async (response) => {
        console.log(`user: ${question}\nassistant: ${(await response.json()).answer}`);
        console.log('  (response sent; the flush runs after it)');
      });
      console.log(frozen());
    }

    await printRecordedTraces(env, { expectedTraces: LAMBDA_QUESTIONS.length + ROUTE_QUESTIONS.length });
  } finally {
    await provider?.shutdown();
    await env.close();
  }
});

/**
 * What the service has when the platform would freeze the process: every trace of the invocation
 * accepted, none left in the queue. Throws otherwise, so a missing flush fails the example.
 *
 * @param {import('@aqm/otel').AqmSpanProcessor} processor
 * @returns {() => string}
 */
function frozenCheck(processor) {
  let exported = 0;
  return () => {
    const stats = processor.stats();
    const delivered = stats.exportedTraces - exported;
    exported = stats.exportedTraces;
    if (stats.queuedTraces !== 0 || stats.openTraces !== 0 || delivered !== 1) {
      throw new Error(
        `when the platform would freeze the process, ${delivered} trace(s) had been delivered, ` +
          `${stats.queuedTraces} were queued and ${stats.openTraces} open`,
      );
    }
    return `  invocation over: ${delivered} trace delivered, nothing queued; the platform may freeze the process now`;
  };
}
