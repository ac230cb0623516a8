import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { map } from './mapping-helpers/chat-span.js';
import { buildTrace, json, type SpanSpec } from './mapping-helpers/spans.js';
import {
  answeringCall,
  askingCall,
  LOOP_ANSWER,
  LOOP_QUESTION,
  loopChildren,
  plainCall,
  toolSpan,
} from './mapping-helpers/tool-loop.js';

// The record's response is the last text answer the model gave in the interaction, whatever wraps
// the model calls; the first call's tool call stays visible in the spans only.

function appSpan(children: SpanSpec[]): SpanSpec {
  return { name: 'POST /ask', kind: SpanKind.SERVER, scope: '@opentelemetry/instrumentation-http', children };
}

/** A Langfuse observation of type `span`: a generic wrapper no convention classifies. */
function langfuseWrapper(children: SpanSpec[]): SpanSpec {
  return {
    name: 'tool-loop',
    scope: 'langfuse-sdk',
    attributes: { 'langfuse.observation.type': 'span', 'langfuse.observation.input': json(LOOP_QUESTION) },
    children,
  };
}

/**
 * An OpenInference chat run (LangChain's) around the call its client's instrumentation traced too:
 * answering `output` in text, or asking for the tool when `undefined`.
 */
function chatRun(inner: SpanSpec, output: string | undefined): SpanSpec {
  const attributes: Record<string, string> = {
    'openinference.span.kind': 'LLM',
    'llm.model_name': 'gpt-4o',
    'llm.input_messages.0.message.role': 'user',
    'llm.input_messages.0.message.content': LOOP_QUESTION,
    'llm.output_messages.0.message.role': 'assistant',
  };
  if (output !== undefined) attributes['llm.output_messages.0.message.content'] = output;
  else {
    attributes['llm.output_messages.0.message.tool_calls.0.tool_call.function.name'] = 'get_capital';
    attributes['llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments'] =
      '{"country":"France"}';
  }
  return {
    name: 'ChatOpenAI',
    scope: '@arizeai/openinference-instrumentation-langchain',
    attributes,
    children: [inner],
  };
}

describe('the response of an app-run tool loop is the final text answer', () => {
  it('with no span around the calls (siblings under a remote parent)', () => {
    const built = buildTrace([askingCall(), answeringCall()], { remoteParent: true });
    const record = map(built.spans);
    expect(record).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
    // The tool call is still in the spans.
    expect(JSON.stringify(record.spans)).toContain('get_capital');
  });

  it("under the app's own request span", () => {
    const built = buildTrace(appSpan(loopChildren()));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
  });

  it('under a generic wrapper span no convention classifies', () => {
    const built = buildTrace(appSpan([langfuseWrapper(loopChildren())]));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
  });

  it('when each model call is a chat run around its client call (nested model calls)', () => {
    const built = buildTrace(
      appSpan([chatRun(askingCall(), undefined), toolSpan(), chatRun(answeringCall(), LOOP_ANSWER)]),
    );
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
  });

  it('ends on the tool call when the model never answered in text', () => {
    const built = buildTrace(appSpan([askingCall(), toolSpan()]));
    expect(map(built.spans).response).toBe('get_capital({"country":"France"})');
  });
});

describe('the response under a chain or agent', () => {
  const agent = (output: string | undefined): SpanSpec => ({
    name: 'agent',
    attributes: {
      'openinference.span.kind': 'AGENT',
      'input.value': LOOP_QUESTION,
      ...(output === undefined ? {} : { 'output.value': output }),
    },
    children: loopChildren(),
  });

  it("is the agent's own output when it is text (its final answer)", () => {
    const built = buildTrace(appSpan([agent('Paris, as the tool said.')]));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: 'Paris, as the tool said.' });
  });

  it("is the last text answer of its model calls when the agent's output is missing", () => {
    const built = buildTrace(appSpan([agent(undefined)]));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
  });

  it("is the last text answer when the agent's own output is only a tool call", () => {
    const asks = json({
      role: 'assistant',
      content: null,
      tool_calls: [{ function: { name: 'get_capital', arguments: '{}' } }],
    });
    const built = buildTrace(appSpan([agent(asks)]));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: LOOP_ANSWER });
  });
});

describe('several model calls that are not one conversation', () => {
  it('keeps the answer to the question the record is about', () => {
    const built = buildTrace(
      appSpan([plainCall('Summarise: the sky is blue.', 'Sky: blue.'), plainCall('Title?', 'Blue')]),
    );
    expect(map(built.spans)).toMatchObject({ prompt: 'Summarise: the sky is blue.', response: 'Sky: blue.' });
  });

  it('takes the last text answer when the first call answered only with a tool call', () => {
    const built = buildTrace(appSpan([askingCall(), plainCall('Title?', 'Blue')]));
    expect(map(built.spans)).toMatchObject({ prompt: LOOP_QUESTION, response: 'Blue' });
  });
});
