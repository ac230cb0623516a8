import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

// Deterministic answers, so every run is the same.
const GATES = { LH440: 'A3', AC123: 'B12' };

const gateTool = tool({
  description: 'Finds the departure gate of a flight by its flight number, e.g. LH440.',
  inputSchema: z.object({ query: z.string().describe('The flight number, or a question that contains it') }),
  execute: async ({ query }) => {
    const flight = query.toUpperCase().match(/\b[A-Z]{2}\d{2,4}\b/)?.[0];
    const gate = flight === undefined ? undefined : GATES[flight];
    return gate === undefined
      ? 'No gate found for that flight.'
      : `Flight ${flight} departs from gate ${gate}.`;
  },
});

/**
 * Asks the model one question with the Vercel AI SDK. `experimental_telemetry` makes the SDK
 * record OpenTelemetry spans of the call (`ai.generateText`, one `ai.generateText.doGenerate` per
 * step, `ai.toolCall` per tool call) with the prompt, the answer and the token usage, on the
 * globally registered tracer provider.
 *
 * @param {{ baseURL: string, apiKey: string, model: string }} llm An OpenAI-compatible upstream.
 * @param {{ question: string, sessionId: string, withTools?: boolean }} request
 * @returns {Promise<string>} The answer.
 * @example
 * const answer = await ask(llm, { question: 'Which gate does LH440 leave from?', sessionId: 's1', withTools: true });
 */
export async function ask(llm, { question, sessionId, withTools = false }) {
  const provider = createOpenAICompatible({ name: 'openai', baseURL: llm.baseURL, apiKey: llm.apiKey });
  const { text } = await generateText({
    model: provider.chatModel(llm.model),
    system: 'You are a concise airport assistant.',
    prompt: question,
    ...(withTools ? { tools: { flight_gate: gateTool }, stopWhen: stepCountIs(3) } : {}),
    experimental_telemetry: { isEnabled: true, functionId: 'airport-assistant', metadata: { sessionId } },
  });
  return text;
}
