import { SpanKind } from '@opentelemetry/api';
import { json, type SpanSpec } from './spans.js';

/** The question of the tool-loop tests, and the model's final answer. */
export const LOOP_QUESTION = 'What is the capital of France?';
export const LOOP_ANSWER = 'The capital of France is Paris.';

const TOOL_CALL = { type: 'tool_call', id: 'call_1', name: 'get_capital', arguments: { country: 'France' } };

/** A semconv chat span: `input` messages in, `output` messages out. */
function chat(input: unknown[], output: unknown[] | undefined, extra: SpanSpec['attributes'] = {}): SpanSpec {
  return {
    name: 'chat gpt-4o',
    kind: SpanKind.CLIENT,
    scope: '@example/openai-instrumentation',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.input.messages': json(input),
      ...(output === undefined ? {} : { 'gen_ai.output.messages': json(output) }),
      ...extra,
    },
  };
}

const USER = { role: 'user', parts: [{ type: 'text', content: LOOP_QUESTION }] };
const ASKS_TOOL = { role: 'assistant', parts: [TOOL_CALL] };
const TOOL_RESULT = {
  role: 'tool',
  parts: [{ type: 'tool_call_response', id: 'call_1', response: 'Paris' }],
};

/** The first call of an app-run tool loop: the model asks for `get_capital`. */
export function askingCall(): SpanSpec {
  return chat([USER], [ASKS_TOOL]);
}

/** The second call: given the tool's result, the model answers in text. */
export function answeringCall(answer = LOOP_ANSWER): SpanSpec {
  return chat(
    [USER, ASKS_TOOL, TOOL_RESULT],
    [{ role: 'assistant', parts: [{ type: 'text', content: answer }] }],
  );
}

/** A plain chat call asked `question` and answering `answer` (no output attribute when `undefined`). */
export function plainCall(question: string, answer: string | undefined): SpanSpec {
  return chat(
    [{ role: 'user', parts: [{ type: 'text', content: question }] }],
    answer === undefined ? undefined : [{ role: 'assistant', parts: [{ type: 'text', content: answer }] }],
  );
}

/** The tool's own span, between the two calls. */
export function toolSpan(): SpanSpec {
  return { name: 'execute_tool get_capital', attributes: { 'gen_ai.operation.name': 'execute_tool' } };
}

/** The whole loop's spans: call, tool, call. */
export function loopChildren(): SpanSpec[] {
  return [askingCall(), toolSpan(), answeringCall()];
}
