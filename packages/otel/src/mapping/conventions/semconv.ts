import { SpanKind } from '@opentelemetry/api';
import { contentText, isToolResultPart } from '../content-text.js';
import { isRecord, parseJsonLoose } from '../json.js';
import { messagesFrom } from '../message-parsing.js';
import type { Message } from '../messages.js';
import type { SpanView } from '../span-view.js';
import { firstNumber, firstString, tokenCounts } from './read-helpers.js';
import type { ConventionReader, SpanRole } from './types.js';

/** `gen_ai.operation.name` values of a model call (semconv, plus Langfuse's and older aliases). */
const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion', 'generate']);
/** Operations that wrap a whole interaction (agents, workflows; Traceloop's LangChain `workflow`, LangSmith `chain`). */
const TOP_OPERATIONS = new Set(['invoke_agent', 'invoke_workflow', 'workflow', 'chain']);
const OTHER_OPERATIONS = new Set(['embeddings', 'create_agent', 'agent_step', 'plan', 'rerank']);

function systemInstructions(view: SpanView): Message | undefined {
  const raw = view.get('gen_ai.system_instructions');
  if (raw === undefined) return undefined;
  // A parts array (JSON) in the convention; a raw string from @opentelemetry/instrumentation-openai's Responses span.
  const parsed = view.json('gen_ai.system_instructions');
  const text = parsed === undefined ? (typeof raw === 'string' ? raw : '') : contentText(parsed);
  return text === '' ? undefined : { role: 'system', text };
}

/**
 * Traceloop records a Responses API input that is not a string as one user text part holding
 * `JSON.stringify(params.input)`: that JSON's messages are the input.
 */
function unwrapJsonInput(messages: Message[] | undefined): Message[] | undefined {
  if (messages?.length !== 1) return messages;
  const only = messages[0]!;
  if (only.role !== 'user' || !only.text.startsWith('[')) return messages;
  const parsed = parseJsonLoose(only.text);
  const inner = Array.isArray(parsed) ? messagesFrom(parsed) : undefined;
  return inner?.some((message) => message.role !== undefined) ? inner : messages;
}

/**
 * A user message whose parts mix tool results and text (Anthropic returns tool results in a user
 * message, and the user's own words may follow them): its text parts alone are what the user said,
 * and with none it is only tool output. `raw` is the attribute's parsed JSON, one item per message.
 */
function userWordsBesideToolResults(messages: Message[] | undefined, raw: unknown): Message[] | undefined {
  if (messages === undefined || !Array.isArray(raw) || raw.length !== messages.length) return messages;
  return messages.map((message, i) => {
    const item: unknown = raw[i];
    if (message.role !== 'user' || message.toolResult || !isRecord(item) || !Array.isArray(item.parts))
      return message;
    if (!item.parts.some(isToolResultPart)) return message;
    const words = contentText(item.parts.filter((part) => !isToolResultPart(part)));
    return words.trim() === '' ? { ...message, toolResult: true } : { ...message, text: words };
  });
}

/** Each text part of a retrieval span's output messages is one document. */
function retrievedDocuments(view: SpanView): string[] | undefined {
  const parsed = view.json('gen_ai.output.messages');
  const documents: string[] = [];
  if (Array.isArray(parsed)) {
    for (const message of parsed) {
      const parts = isRecord(message) && Array.isArray(message.parts) ? message.parts : [message];
      for (const part of parts) {
        const text = contentText([part]);
        if (text !== '') documents.push(text);
      }
    }
  } else {
    for (const message of view.messages('gen_ai.output.messages') ?? []) {
      if (message.text !== '') documents.push(message.text);
    }
  }
  return documents.length > 0 ? documents : undefined;
}

/**
 * OTel GenAI semantic conventions on span attributes: `gen_ai.operation.name`, JSON
 * `gen_ai.input.messages` / `gen_ai.output.messages` / `gen_ai.system_instructions`, model,
 * provider (`gen_ai.provider.name`, deprecated `gen_ai.system`), usage and conversation id.
 */
export const semconvReader: ConventionReader = {
  name: 'semconv',
  detect: (view) =>
    view.get('gen_ai.operation.name') !== undefined ||
    view.get('gen_ai.input.messages') !== undefined ||
    view.get('gen_ai.output.messages') !== undefined,
  kind(view): SpanRole | undefined {
    const operation = view.str('gen_ai.operation.name');
    if (operation === undefined) return undefined;
    // A remote agent (CLIENT) is the model call of its trace: nothing runs below it locally.
    if (operation === 'invoke_agent' && view.span.kind === SpanKind.CLIENT) return 'llm';
    if (LLM_OPERATIONS.has(operation)) return 'llm';
    if (TOP_OPERATIONS.has(operation)) return 'top';
    if (operation === 'execute_tool') return 'tool';
    if (operation === 'retrieval') return 'retriever';
    return OTHER_OPERATIONS.has(operation) ? 'other' : undefined;
  },
  prompt(view) {
    const input = view.memo('semconv:input', () =>
      unwrapJsonInput(
        userWordsBesideToolResults(
          view.messages('gen_ai.input.messages'),
          view.json('gen_ai.input.messages'),
        ),
      ),
    );
    if (input === undefined) return undefined;
    const system = systemInstructions(view);
    return system === undefined ? input : [system, ...input];
  },
  response: (view) => view.messages('gen_ai.output.messages'),
  model: (view) => firstString(view, ['gen_ai.response.model', 'gen_ai.request.model']),
  provider: (view) => firstString(view, ['gen_ai.provider.name', 'gen_ai.system']),
  usage: (view) =>
    tokenCounts(
      firstNumber(view, ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens']),
      firstNumber(view, ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens']),
      firstNumber(view, ['gen_ai.usage.total_tokens', 'llm.usage.total_tokens']),
    ),
  context(view) {
    if (view.str('gen_ai.operation.name') !== 'retrieval') return undefined;
    return view.memo('semconv:context', () => retrievedDocuments(view));
  },
  session: (view) => firstString(view, ['session.id', 'gen_ai.conversation.id']),
  user: (view) => firstString(view, ['user.id', 'enduser.id']),
};
