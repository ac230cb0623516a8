// @aqm/otel README, "Serverless": an AWS Lambda handler (CommonJS) on AqmSpanProcessor({ serverless: true }),
// wrapped in withAqmFlush, invoked once as the Lambda runtime would. The process then ends at once, without
// shutdown() or the exit flush (a frozen, reclaimed instance gets neither): the trace must already be stored.
// AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID come from the environment.
const { AqmSpanProcessor, withAqmFlush, withLlmSpan } = require('@aqm/otel');
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');

const processor = new AqmSpanProcessor({ serverless: true });
new NodeTracerProvider({ spanProcessors: [processor] }).register();

exports.handler = withAqmFlush(processor, async (event) => {
  await withLlmSpan({ model: 'gpt-4o-mini', provider: 'openai', prompt: event.prompt }, async (span) => {
    span.setResponse('Refunds are possible within 30 days.').setUsage({ inputTokens: 9, outputTokens: 8 });
  });
  return { statusCode: 200 };
});

// The runtime's side: one invocation, then the instance is gone.
const prompt = `What is the refund policy? (otel-sdk-2, Lambda, ${process.pid})`;
exports.handler({ prompt }, { getRemainingTimeInMillis: () => 30_000 }).then(() => {
  console.log(JSON.stringify({ prompt }));
  process.exit(0);
});
