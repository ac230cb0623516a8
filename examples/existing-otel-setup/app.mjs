import { withLlmSpan } from '@aqm/otel';
import { trace } from '@opentelemetry/api';
import OpenAI from 'openai';

const tracer = trace.getTracer('existing-otel-setup');

/**
 * The app's request handler, already traced by hand before AQM came along: one span for the
 * request, one child span (from `withLlmSpan`, GenAI attributes included) for the model call.
 *
 * @param {{ baseURL: string, apiKey: string, model: string }} llm An OpenAI-compatible upstream.
 * @returns {(question: string) => Promise<string>}
 * @example
 * const answerQuestion = createQuestionHandler(llm);
 * await answerQuestion('When does the museum open?');
 */
export function createQuestionHandler(llm) {
  const openai = new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey });
  return (question) =>
    tracer.startActiveSpan('handle question', async (requestSpan) => {
      try {
        return await withLlmSpan(
          { model: llm.model, provider: 'openai', prompt: question },
          async (llmSpan) => {
            const completion = await openai.chat.completions.create({
              model: llm.model,
              messages: [{ role: 'user', content: question }],
            });
            const answer = completion.choices[0]?.message?.content ?? '';
            llmSpan.setResponse(answer).setModel(completion.model);
            if (completion.usage) {
              llmSpan.setUsage({
                inputTokens: completion.usage.prompt_tokens,
                outputTokens: completion.usage.completion_tokens,
              });
            }
            return answer;
          },
        );
      } finally {
        requestSpan.end();
      }
    });
}
