/**
 * Reads a LangChain chat message without importing LangChain's classes: a `BaseMessage` of any
 * `@langchain/core` version (0.3 has `_getType()`, 1.x a `type` field), its serialised form
 * (`{ lc: 1, type: 'constructor', id: [..., 'HumanMessage'], kwargs }`), or a plain
 * `{ role, content }` object as apps and agents often pass.
 */

/** A tool call requested by an assistant message. */
export interface ToolCallView {
  id?: string;
  name: string;
  args: unknown;
}

/** What the handler needs of one message. */
export interface MessageView {
  /** LangChain's message type (`human`, `ai`, `system`, `tool`, `generic`, ...) or a plain role. */
  type: string;
  /** The role of a `ChatMessage` (type `generic`). */
  role?: string;
  content: unknown;
  toolCalls: ToolCallView[];
  toolCallId?: string;
  /** `status` of a tool message (`error` when the tool failed and the error was returned). */
  status?: string;
  responseMetadata?: Record<string, unknown>;
  usageMetadata?: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

/** A plain (non-null, non-array) object. */
export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string, or `undefined`. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const SERIALIZED_TYPES: Record<string, string> = {
  HumanMessage: 'human',
  HumanMessageChunk: 'human',
  AIMessage: 'ai',
  AIMessageChunk: 'ai',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'generic',
};

const PLAIN_ROLES = new Set(['user', 'human', 'assistant', 'ai', 'system', 'developer', 'tool', 'function']);

function messageType(value: Obj): { type: string; fields: Obj } | undefined {
  const namespace = value.lc_namespace;
  if (Array.isArray(namespace) && namespace.includes('messages') && typeof value.type === 'string') {
    return { type: value.type, fields: value };
  }
  if (typeof value._getType === 'function' && 'content' in value) {
    try {
      const type: unknown = (value._getType as () => unknown).call(value);
      if (typeof type === 'string') return { type, fields: value };
    } catch {
      return undefined;
    }
  }
  if (value.lc === 1 && value.type === 'constructor' && Array.isArray(value.id) && isObject(value.kwargs)) {
    const type = SERIALIZED_TYPES[String(value.id[value.id.length - 1])];
    if (type !== undefined) return { type, fields: value.kwargs };
  }
  if (typeof value.role === 'string' && PLAIN_ROLES.has(value.role) && 'content' in value) {
    return { type: value.role, fields: value };
  }
  return undefined;
}

function toolCallsOf(fields: Obj): ToolCallView[] {
  const calls: ToolCallView[] = [];
  if (Array.isArray(fields.tool_calls)) {
    for (const call of fields.tool_calls) {
      if (!isObject(call)) continue;
      // LangChain's own shape is { id, name, args }; plain OpenAI-style messages carry { id, function: { name, arguments } }.
      const fn = isObject(call.function) ? call.function : undefined;
      const name = nonEmptyString(call.name) ?? nonEmptyString(fn?.name);
      if (name === undefined) continue;
      calls.push({ id: nonEmptyString(call.id), name, args: 'args' in call ? call.args : fn?.arguments });
    }
  }
  const legacy = isObject(fields.additional_kwargs) ? fields.additional_kwargs.tool_calls : undefined;
  if (calls.length === 0 && Array.isArray(legacy)) {
    for (const call of legacy) {
      const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
      const name = nonEmptyString(fn?.name);
      if (isObject(call) && name !== undefined)
        calls.push({ id: nonEmptyString(call.id), name, args: fn?.arguments });
    }
  }
  return calls;
}

/**
 * The message view of `value`, or `undefined` when it is not a chat message.
 *
 * @example
 * viewMessage(new HumanMessage('hi'))?.type; // 'human'
 * viewMessage({ role: 'user', content: 'hi' })?.type; // 'user'
 */
export function viewMessage(value: unknown): MessageView | undefined {
  if (!isObject(value)) return undefined;
  const found = messageType(value);
  if (found === undefined) return undefined;
  const { type, fields } = found;
  return {
    type,
    role: nonEmptyString(fields.role),
    content: fields.content,
    toolCalls: toolCallsOf(fields),
    toolCallId: nonEmptyString(fields.tool_call_id),
    status: nonEmptyString(fields.status),
    responseMetadata: isObject(fields.response_metadata) ? fields.response_metadata : undefined,
    usageMetadata: isObject(fields.usage_metadata) ? fields.usage_metadata : undefined,
  };
}

/** Whether `value` is a non-empty array whose every item is a chat message. */
export function isMessageList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => viewMessage(item) !== undefined);
}
