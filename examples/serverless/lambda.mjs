// An AWS Lambda function behind API Gateway (deployed as `lambda.handler`). Lambda freezes the
// process as soon as the handler's promise settles: whatever is still queued then leaves only if
// this instance is invoked again, and is lost when Lambda reclaims it. withAqmFlush awaits
// processor.forceFlush() after every invocation (also when the handler throws), so the invocation's
// traces are accepted by the service before the handler returns.
import { withAqmFlush } from '@aqm/otel';
import { answerQuestion } from './app.mjs';
import { processor } from './tracing.mjs';

export const handler = withAqmFlush(processor, async (event) => {
  const { question } = JSON.parse(event.body ?? '{}');
  const answer = await answerQuestion(question);
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answer }),
  };
});
