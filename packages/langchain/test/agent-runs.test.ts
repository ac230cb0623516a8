import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from './helpers/scripted-chat-model.js';
import { ERROR, jsonAttribute, parentIdOf, setupTracing } from './helpers/tracing.js';

const citySchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
} as const;

function weatherTool() {
  return tool(async (input: unknown) => `Sunny, 21°C in ${(input as { city: string }).city}`, {
    name: 'get_weather',
    description: 'Current weather of a city',
    schema: citySchema,
  });
}

/** A small tool-using agent: model → tool calls → tools → model, until the model answers. */
function weatherAgent(model: ScriptedChatModel, tools: ReturnType<typeof weatherTool>[]) {
  const byName = new Map<string, ReturnType<typeof weatherTool>>(tools.map((t) => [t.name, t]));
  return RunnableLambda.from(async (input: { input: string }, config) => {
    const modelWithTools = model.bindTools();
    const messages: BaseMessage[] = [new HumanMessage(input.input)];
    for (let step = 0; step < 4; step++) {
      const reply = await modelWithTools.invoke(messages, config);
      messages.push(reply);
      if (!reply.tool_calls?.length) return { output: String(reply.content) };
      for (const call of reply.tool_calls) {
        const toolCall = { id: call.id ?? '', name: call.name, args: call.args, type: 'tool_call' as const };
        const result: ToolMessage = await byName.get(call.name)!.invoke(toolCall, config);
        messages.push(result);
      }
    }
    throw new Error('agent did not finish');
  }).withConfig({ runName: 'weather_agent' });
}

function scriptedModel() {
  return new ScriptedChatModel({
    model: 'agent-model',
    replies: [
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }],
        usage_metadata: { input_tokens: 20, output_tokens: 5, total_tokens: 25 },
        response_metadata: { finish_reason: 'tool_calls' },
      }),
      new AIMessage({
        content: 'It is sunny in Oslo, 21°C.',
        usage_metadata: { input_tokens: 40, output_tokens: 9, total_tokens: 49 },
      }),
    ],
  });
}

describe('agent runs', () => {
  it('a tool-using agent loop becomes invoke_agent → chat, execute_tool, chat', async () => {
    const t = setupTracing();
    const agent = weatherAgent(scriptedModel(), [weatherTool()]);
    const result = await agent.invoke({ input: 'Weather in Oslo?' }, { callbacks: [t.handler] });
    expect(result).toEqual({ output: 'It is sunny in Oslo, 21°C.' });

    const root = t.span('invoke_agent weather_agent');
    expect(root.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    expect(root.attributes['gen_ai.agent.name']).toBe('weather_agent');
    expect(jsonAttribute(root, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] },
    ]);
    expect(jsonAttribute(root, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: 'It is sunny in Oslo, 21°C.' }],
        finish_reason: 'stop',
      },
    ]);

    const chats = t.spans().filter((s) => s.name === 'chat agent-model');
    expect(chats).toHaveLength(2);
    const [first, second] = chats as [(typeof chats)[0], (typeof chats)[0]];
    const toolSpan = t.span('execute_tool get_weather');
    for (const child of [first, second, toolSpan]) expect(parentIdOf(child)).toBe(root.spanContext().spanId);
    const startNs = (s: typeof first) => BigInt(s.startTime[0]) * 1_000_000_000n + BigInt(s.startTime[1]);
    expect(startNs(first) <= startNs(toolSpan) && startNs(toolSpan) <= startNs(second)).toBe(true);

    expect(jsonAttribute(first, 'gen_ai.output.messages')).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        finish_reason: 'tool_calls',
      },
    ]);
    expect(first.attributes['gen_ai.usage.input_tokens']).toBe(20);
    expect(second.attributes['gen_ai.usage.output_tokens']).toBe(9);

    expect(toolSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.result': 'Sunny, 21°C in Oslo',
    });
    expect(JSON.parse(String(toolSpan.attributes['gen_ai.tool.call.arguments']))).toEqual({ city: 'Oslo' });

    // The second model call sees the whole exchange: question, tool call, tool result.
    expect(jsonAttribute(second, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'call_1', response: 'Sunny, 21°C in Oslo' }],
      },
    ]);
    expect(t.handler.openRunCount).toBe(0);
  });

  it('a failing tool records the error on its span', async () => {
    const t = setupTracing();
    const broken = tool(
      async (): Promise<string> => {
        throw new TypeError('weather service down');
      },
      { name: 'get_weather', description: 'Current weather of a city', schema: citySchema },
    );
    const agent = weatherAgent(scriptedModel(), [broken]);
    await expect(agent.invoke({ input: 'Weather in Oslo?' }, { callbacks: [t.handler] })).rejects.toThrow(
      'weather service down',
    );
    const toolSpan = t.span('execute_tool get_weather');
    expect(toolSpan.status).toEqual({ code: ERROR, message: 'weather service down' });
    expect(toolSpan.attributes['error.type']).toBe('TypeError');
    expect(t.span('invoke_agent weather_agent').status.code).toBe(ERROR);
  });

  it('a tool result handed back as an error ToolMessage marks the tool span as failed', () => {
    const t = setupTracing();
    t.handler.handleToolStart(
      { lc: 1, type: 'not_implemented', id: ['tools', 'Lookup'] },
      '{"q":1}',
      'tool-run-1',
    );
    t.handler.handleToolEnd(
      new ToolMessage({ content: 'Error: not found', tool_call_id: 'call_7', status: 'error' }),
      'tool-run-1',
    );
    const span = t.span('execute_tool Lookup');
    expect(span.status).toEqual({ code: ERROR, message: 'Error: not found' });
    expect(span.attributes['gen_ai.tool.call.id']).toBe('call_7');
    expect(span.attributes['gen_ai.tool.call.result']).toBe('Error: not found');
  });

  it('a chain that reports agent actions (legacy AgentExecutor) becomes invoke_agent whatever its name', () => {
    const t = setupTracing();
    const serialized = { lc: 1, type: 'not_implemented' as const, id: ['chains', 'MyLoop'] };
    t.handler.handleChainStart(
      serialized,
      { input: 'hi' },
      'loop-1',
      undefined,
      [],
      {},
      undefined,
      'my_loop',
    );
    t.handler.handleAgentAction({ tool: 'search', toolInput: 'hi', log: '' }, 'loop-1');
    t.handler.handleChainEnd({ output: 'done' }, 'loop-1');
    const span = t.span('invoke_agent my_loop');
    expect(span.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    expect(span.attributes['gen_ai.agent.name']).toBe('my_loop');
    expect(span.events.find((e) => e.name === 'gen_ai.agent.action')?.attributes).toEqual({
      'gen_ai.tool.name': 'search',
    });
  });

  it('a chain named like an AgentExecutor is an agent from the start', async () => {
    const t = setupTracing();
    const executor = RunnableLambda.from((x: string) => x).withConfig({ runName: 'AgentExecutor' });
    await executor.invoke('go', { callbacks: [t.handler] });
    expect(t.span('invoke_agent AgentExecutor').attributes['gen_ai.agent.name']).toBe('AgentExecutor');
  });
});
