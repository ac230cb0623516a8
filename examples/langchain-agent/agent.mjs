import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { ChatOpenAI } from '@langchain/openai';
import { flightStatusTool } from './flight-status-tool.mjs';

// A guard against a model that keeps calling tools forever.
const MAX_STEPS = 4;

/**
 * A tool-calling agent: the chat model decides whether to call `flight_status`, the tool's result
 * goes back to the model, and the model's last message is the answer. Its run name mentions
 * "agent", so `AqmCallbackHandler` records it as an `invoke_agent` span with the model calls and
 * the tool call as children.
 *
 * @param {{ baseURL: string, apiKey: string, model: string }} llm An OpenAI-compatible upstream.
 * @returns {import('@langchain/core/runnables').Runnable<{ question: string }, string>}
 * @example
 * const answer = await createTravelAgent(llm).invoke({ question: 'Is LH440 on time?' }, { callbacks: [handler] });
 */
export function createTravelAgent(llm) {
  const model = new ChatOpenAI({
    model: llm.model,
    apiKey: llm.apiKey,
    temperature: 0,
    configuration: { baseURL: llm.baseURL },
  }).bindTools([flightStatusTool]);

  return RunnableLambda.from(async ({ question }, config) => {
    const messages = [
      new SystemMessage('You are a travel assistant. Use the flight_status tool for flight questions.'),
      new HumanMessage(question),
    ];
    for (let step = 0; step < MAX_STEPS; step += 1) {
      // Passing `config` on makes these runs children of the agent's run (and of its callbacks).
      const reply = await model.invoke(messages, config);
      messages.push(reply);
      if (!reply.tool_calls?.length) return String(reply.content);
      for (const call of reply.tool_calls) messages.push(await flightStatusTool.invoke(call, config));
    }
    throw new Error(`the agent did not answer within ${MAX_STEPS} steps`);
  }).withConfig({ runName: 'travel_agent' });
}
