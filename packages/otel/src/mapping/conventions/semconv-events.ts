import { contentText } from '../content-text.js';
import { isRecord } from '../json.js';
import type { LlmLogRecord } from '../llm-log-record.js';
import { messagesFromValue, parseMessageObject } from '../message-parsing.js';
import type { Message } from '../messages.js';
import type { SpanView } from '../span-view.js';
import type { ConventionReader } from './types.js';

/** semconv 1.28–1.36 per-message log events → the role of their message. */
const MESSAGE_EVENT_ROLES: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};
const CHOICE_EVENT = 'gen_ai.choice';
const OPERATION_DETAILS_EVENT = 'gen_ai.client.inference.operation.details';

interface EventContent {
  input: Message[] | undefined;
  output: Message[] | undefined;
}

function bodyRecord(body: unknown): Record<string, unknown> | undefined {
  if (isRecord(body)) return body;
  if (typeof body === 'string') {
    const messages = messagesFromValue(body);
    return messages === undefined
      ? undefined
      : { content: messages.map((message) => message.text).join('\n') };
  }
  return undefined;
}

/** A structured (log) or JSON-string (span) value of `gen_ai.{input,output}.messages`. */
function detailMessages(log: LlmLogRecord, key: string): Message[] | undefined {
  const fromAttributes = log.attributes[key];
  if (fromAttributes !== undefined) return messagesFromValue(fromAttributes);
  return isRecord(log.body) && log.body[key] !== undefined ? messagesFromValue(log.body[key]) : undefined;
}

function detailSystem(log: LlmLogRecord): Message | undefined {
  const raw =
    log.attributes['gen_ai.system_instructions'] ??
    (isRecord(log.body) ? log.body['gen_ai.system_instructions'] : undefined);
  if (raw === undefined) return undefined;
  const text = contentText(raw);
  return text === '' ? undefined : { role: 'system', text };
}

function choiceMessage(body: unknown): { index: number; message: Message } | undefined {
  const record = bodyRecord(body);
  if (record === undefined) return undefined;
  const index = typeof record.index === 'number' ? record.index : 0;
  const fields = isRecord(record.message) ? record.message : record;
  const message = parseMessageObject({
    ...fields,
    role: typeof fields.role === 'string' ? fields.role : 'assistant',
  });
  return message === undefined ? undefined : { index, message };
}

/** Reads the content of the log records joined to a span, in their arrival order. */
function fromLogs(logs: readonly LlmLogRecord[]): EventContent {
  const input: Message[] = [];
  const choices: Array<{ index: number; message: Message }> = [];
  let detailsInput: Message[] | undefined;
  let detailsOutput: Message[] | undefined;
  for (const log of logs) {
    const role = MESSAGE_EVENT_ROLES[log.eventName];
    if (role !== undefined) {
      const record = bodyRecord(log.body) ?? {};
      const message = parseMessageObject({ ...record, role });
      if (message !== undefined) input.push(message);
    } else if (log.eventName === CHOICE_EVENT) {
      const choice = choiceMessage(log.body);
      if (choice !== undefined) choices.push(choice);
    } else if (log.eventName === OPERATION_DETAILS_EVENT) {
      const messages = detailMessages(log, 'gen_ai.input.messages');
      if (messages !== undefined) {
        const system = detailSystem(log);
        detailsInput = system === undefined ? messages : [system, ...messages];
      }
      detailsOutput = detailMessages(log, 'gen_ai.output.messages') ?? detailsOutput;
    }
  }
  choices.sort((a, b) => a.index - b.index);
  return {
    input: detailsInput ?? (input.length > 0 ? input : undefined),
    output: detailsOutput ?? (choices.length > 0 ? choices.map((choice) => choice.message) : undefined),
  };
}

/** semconv 1.26–1.27 span events `gen_ai.content.prompt` / `gen_ai.content.completion`. */
function fromSpanEvents(view: SpanView): EventContent {
  let input: Message[] | undefined;
  let output: Message[] | undefined;
  for (const event of view.span.events ?? []) {
    if (event.name === 'gen_ai.content.prompt')
      input = messagesFromValue(event.attributes?.['gen_ai.prompt']) ?? input;
    else if (event.name === 'gen_ai.content.completion') {
      output = messagesFromValue(event.attributes?.['gen_ai.completion']) ?? output;
    }
  }
  return { input, output };
}

function eventContent(view: SpanView): EventContent {
  return view.memo('semconv-events:content', () => {
    const logs = view.logs.length > 0 ? fromLogs(view.logs) : { input: undefined, output: undefined };
    const events = fromSpanEvents(view);
    return { input: logs.input ?? events.input, output: logs.output ?? events.output };
  });
}

function hasContentEvent(view: SpanView): boolean {
  for (const event of view.span.events ?? []) {
    if (event.name === 'gen_ai.content.prompt' || event.name === 'gen_ai.content.completion') return true;
  }
  return false;
}

/**
 * The older homes of semconv content: span events (semconv ≤ 1.27) and log records joined to
 * the span (1.28–1.36 per-message events and `gen_ai.choice`; 1.37+
 * `gen_ai.client.inference.operation.details` with structured messages).
 */
export const semconvEventsReader: ConventionReader = {
  name: 'semconv-events',
  detect: (view) => view.logs.length > 0 || hasContentEvent(view),
  prompt: (view) => eventContent(view).input,
  response: (view) => eventContent(view).output,
};
