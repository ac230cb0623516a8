import { withLlmSpan } from '@aqm/otel';
import OpenAI from 'openai';

// Module scope: created once per cold start, reused by every invocation of a warm instance.
// OPENAI_BASE_URL and OPENAI_API_KEY come from the function's environment.
const openai = new OpenAI();
const MODEL = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';

/**
 * The app's one model call, traced by hand with `withLlmSpan` (the GenAI span AQM turns into a
 * prompt/response trace). An instrumentation (`@opentelemetry/instrumentation-openai`, the Vercel
 * AI SDK's telemetry) would do as well.
 *
 * @param {string} question
 * @returns {Promise<string>}
 * @example
 * const answer = await answerQuestion('When does the museum open?');
 */
export function answerQuestion(question) {
  return withLlmSpan({ model: MODEL, provider: 'openai', prompt: question }, async (span) => {
    const completion = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: question }],
    });
    const answer = completion.choices[0]?.message?.content ?? '';
    span.setResponse(answer).setModel(completion.model);
    if (completion.usage) {
      span.setUsage({
        inputTokens: completion.usage.prompt_tokens,
        outputTokens: completion.usage.completion_tokens,
      });
    }
    return answer;
  });
}
