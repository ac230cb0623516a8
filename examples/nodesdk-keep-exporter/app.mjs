import OpenAI from 'openai';

/**
 * The app: one `openai` chat call per question. It knows nothing about tracing.
 *
 * @param {{ baseURL: string, apiKey: string, model: string }} llm An OpenAI-compatible upstream.
 * @returns {(question: string) => Promise<string>}
 * @example
 * const ask = createAsker(llm);
 * console.log(await ask('What is the capital of France?'));
 */
export function createAsker(llm) {
  const openai = new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey });
  return async (question) => {
    const completion = await openai.chat.completions.create({
      model: llm.model,
      messages: [
        { role: 'system', content: 'You are a concise travel assistant.' },
        { role: 'user', content: question },
      ],
    });
    return completion.choices[0]?.message?.content ?? '';
  };
}
