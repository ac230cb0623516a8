/**
 * The span a LangChain run starts: its name, kind and first attributes, per kind of run.
 */
import { type Attributes, SpanKind } from '@opentelemetry/api';
import { ATTR, OPERATION, type OperationName } from './attributes.js';
import { chainInputMessages } from './chain-values.js';
import { type GenAiMessage, messagesJson, textMessage, toGenAiMessage } from './genai-messages.js';
import { isObject, nonEmptyString } from './message-view.js';
import { modelInfo, serializedClassName } from './model-info.js';
import type { ResolvedHandlerOptions } from './options.js';
import { safeStringify, truncateText } from './safe-json.js';

/** What a run's span starts with. */
export interface SpanStart {
  name: string;
  kind: SpanKind;
  operation: OperationName;
  attributes: Attributes;
  /** The requested model, when known (model runs). */
  model?: string;
}

/** Content settings the builders need. */
export type ContentOptions = Pick<ResolvedHandlerOptions, 'captureContent' | 'maxValueChars'>;

/** How many value caps a whole message list may take. */
const MESSAGE_LIST_FACTOR = 4;

/** The display name of a run: the name LangChain gave it, else the serialised object's name or class. */
export function runDisplayName(runName: unknown, serialized: unknown, fallback: string): string {
  return (
    nonEmptyString(runName) ??
    (isObject(serialized) ? nonEmptyString(serialized.name) : undefined) ??
    serializedClassName(serialized) ??
    fallback
  );
}

/** Whether a chain run is an agent: its name or run type mentions "agent" (`AgentExecutor`, `agent`, ...). */
export function isAgentRun(name: string, runType: unknown): boolean {
  return /agent/i.test(name) || (typeof runType === 'string' && /agent/i.test(runType));
}

function messagesAttribute(messages: readonly GenAiMessage[], options: ContentOptions): string {
  return messagesJson(messages, options.maxValueChars * MESSAGE_LIST_FACTOR);
}

function modelStart(
  operation: OperationName,
  input: GenAiMessage[],
  serialized: unknown,
  extraParams: unknown,
  metadata: unknown,
  options: ContentOptions,
): SpanStart {
  const info = modelInfo(serialized, extraParams, metadata);
  const attributes: Attributes = { [ATTR.operationName]: operation, ...info.requestAttributes };
  if (info.model !== undefined) attributes[ATTR.requestModel] = info.model;
  if (info.provider !== undefined) attributes[ATTR.providerName] = info.provider;
  if (options.captureContent) attributes[ATTR.inputMessages] = messagesAttribute(input, options);
  const name = info.model === undefined ? operation : `${operation} ${info.model}`;
  return { name, kind: SpanKind.CLIENT, operation, attributes, model: info.model };
}

/**
 * A chat model run (`handleChatModelStart`): `chat {model}`, the messages as input.
 *
 * @example
 * chatModelStart(serialized, [[new HumanMessage('hi')]], extraParams, metadata, options).name; // 'chat gpt-4o'
 */
export function chatModelStart(
  serialized: unknown,
  messages: unknown,
  extraParams: unknown,
  metadata: unknown,
  options: ContentOptions,
): SpanStart {
  const lists: unknown[] = Array.isArray(messages) ? messages : [];
  const input = lists
    .flatMap((list) => (Array.isArray(list) ? list : [list]))
    .flatMap((message) => toGenAiMessage(message, options.maxValueChars) ?? []);
  return modelStart(OPERATION.chat, input, serialized, extraParams, metadata, options);
}

/** A plain LLM run (`handleLLMStart`): `text_completion {model}`, each prompt a user message. */
export function llmStart(
  serialized: unknown,
  prompts: unknown,
  extraParams: unknown,
  metadata: unknown,
  options: ContentOptions,
): SpanStart {
  const input = (Array.isArray(prompts) ? prompts : [prompts]).map((prompt) =>
    textMessage(
      'user',
      typeof prompt === 'string' ? prompt : safeStringify(prompt, options.maxValueChars),
      options.maxValueChars,
    ),
  );
  return modelStart(OPERATION.textCompletion, input, serialized, extraParams, metadata, options);
}

/** A chain run: `invoke_agent {name}` for an agent, else `invoke_workflow {name}`. */
export function chainStart(
  serialized: unknown,
  inputs: unknown,
  runType: unknown,
  runName: unknown,
  options: ContentOptions,
): SpanStart {
  const name = runDisplayName(runName, serialized, 'chain');
  const agent = isAgentRun(name, runType);
  const operation = agent ? OPERATION.invokeAgent : OPERATION.invokeWorkflow;
  const attributes: Attributes = { [ATTR.operationName]: operation };
  if (agent) attributes[ATTR.agentName] = name;
  if (options.captureContent) {
    attributes[ATTR.inputMessages] = messagesAttribute(
      chainInputMessages(inputs, options.maxValueChars),
      options,
    );
  }
  return { name: `${operation} ${name}`, kind: SpanKind.INTERNAL, operation, attributes };
}

/** A tool run: `execute_tool {name}` with the call id and arguments. */
export function toolStart(
  serialized: unknown,
  input: unknown,
  runName: unknown,
  toolCallId: unknown,
  options: ContentOptions,
): SpanStart {
  const name = runDisplayName(runName, serialized, 'tool');
  const attributes: Attributes = { [ATTR.operationName]: OPERATION.executeTool, [ATTR.toolName]: name };
  const callId = nonEmptyString(toolCallId);
  if (callId !== undefined) attributes[ATTR.toolCallId] = callId;
  if (options.captureContent && input !== undefined) {
    attributes[ATTR.toolCallArguments] = safeStringify(input, options.maxValueChars);
  }
  return {
    name: `execute_tool ${name}`,
    kind: SpanKind.INTERNAL,
    operation: OPERATION.executeTool,
    attributes,
  };
}

/** A retriever run: `retrieval {name}` with the query. */
export function retrieverStart(
  serialized: unknown,
  query: unknown,
  runName: unknown,
  options: ContentOptions,
): SpanStart {
  const name = runDisplayName(runName, serialized, 'retriever');
  const attributes: Attributes = { [ATTR.operationName]: OPERATION.retrieval };
  if (options.captureContent && typeof query === 'string') {
    attributes[ATTR.retrievalQueryText] = truncateText(query, options.maxValueChars);
  }
  return { name: `retrieval ${name}`, kind: SpanKind.INTERNAL, operation: OPERATION.retrieval, attributes };
}

const SESSION_KEYS = ['session_id', 'sessionId', 'thread_id', 'conversation_id'];
const USER_KEYS = ['user_id', 'userId'];
/** The metadata keys read as session and user ids (left out of the run's other metadata). */
export const ID_KEYS: ReadonlySet<string> = new Set([...SESSION_KEYS, ...USER_KEYS]);

/** `session.id` / `user.id` from the run's LangChain metadata (`{ metadata: { session_id, user_id } }`). */
export function identityAttributes(metadata: unknown): Attributes {
  const attributes: Attributes = {};
  if (!isObject(metadata)) return attributes;
  const pick = (keys: string[]) => {
    for (const key of keys) {
      const value = metadata[key];
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    }
    return undefined;
  };
  const session = pick(SESSION_KEYS);
  const user = pick(USER_KEYS);
  if (session !== undefined) attributes[ATTR.sessionId] = session;
  if (user !== undefined) attributes[ATTR.userId] = user;
  return attributes;
}
