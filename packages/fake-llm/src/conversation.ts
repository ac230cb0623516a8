import type { FakeChatMessage, FakeChatRequest, FakeLlmApi } from './types.js';

/** A tool offered to the model, with its JSON schema (`parameters` / `input_schema`) when given. */
export interface ToolSpec {
  name: string;
  description?: string;
  schema?: unknown;
}

/** Whether and which tool the client lets the model call. */
export type ToolChoice =
  | { kind: 'auto' }
  | { kind: 'none' }
  | { kind: 'required' }
  | { kind: 'named'; name: string };

/** A model request parsed from any API: the public view plus what the answer needs. */
export interface Conversation {
  request: FakeChatRequest;
  toolSpecs: ToolSpec[];
  toolChoice: ToolChoice;
  /** The client's cap on answer tokens (`max_tokens`, `max_output_tokens`...), when given. */
  maxTokens: number | undefined;
}

/**
 * A {@link Conversation} from the parts every API's parser reads: the recorded request lists each
 * offered tool by name (and description) only, the answer keeps the whole specs.
 */
export function conversationOf(parts: {
  api: FakeLlmApi;
  model: string;
  messages: FakeChatMessage[];
  toolSpecs: ToolSpec[];
  stream: boolean;
  toolChoice: ToolChoice;
  maxTokens: number | undefined;
}): Conversation {
  const { api, model, messages, toolSpecs, stream, toolChoice, maxTokens } = parts;
  const tools = toolSpecs.map(({ name, description }) =>
    description === undefined ? { name } : { name, description },
  );
  return { request: { model, messages, tools, stream, api }, toolSpecs, toolChoice, maxTokens };
}

/** A bad request body: the message names the field, the expectation and the value. */
export class RequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestError';
  }
}

/** A short, printable rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Plain-object check that rejects arrays and null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the required string `field` of a body. */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestError(`${field} must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** Reads an optional positive integer `field` of a body. */
export function optionalPositiveInteger(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RequestError(`${field} must be a positive integer, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * The text of a message content: a string as is; an array of parts → their `text` joined by newlines
 * (images, audio and files have none and are left out).
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (isRecord(part) && typeof part.text === 'string') return part.text;
      return undefined;
    })
    .filter((text): text is string => text !== undefined)
    .join('\n');
}
