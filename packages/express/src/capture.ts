import type { Span } from '@opentelemetry/api';
import {
  ATTR_CAPTURE_TRUNCATED,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
} from './attributes.js';
import { truncateUtf8 } from './byte-collector.js';
import { expressDiag } from './diag.js';
import { describeValue } from './option-checks.js';
import type { ResolvedCapture } from './options.js';
import type { TappedBody } from './response-tap.js';

interface TextPart {
  type: 'text';
  content: string;
}
interface InputMessage {
  role: string;
  parts: TextPart[];
}

/** Runs a user's capture function; a throw is reported through `diag` and counts as "nothing". */
function safely<T>(name: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    expressDiag.warn(`${name} threw; nothing is recorded from it and the response is unaffected`, error);
    return undefined;
  }
}

/** `capture.prompt`'s result as GenAI input messages, or `undefined` when it gave nothing usable. */
function inputMessages(prompt: unknown): InputMessage[] | undefined {
  if (prompt === undefined || prompt === null) return undefined;
  if (typeof prompt === 'string') return [{ role: 'user', parts: [{ type: 'text', content: prompt }] }];
  if (Array.isArray(prompt)) {
    const messages: InputMessage[] = [];
    for (const [index, message] of prompt.entries()) {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      if (typeof role !== 'string' || typeof content !== 'string') {
        expressDiag.warn(
          `expected capture.prompt()[${index}] to be a { role: string, content: string } message, got ${describeValue(message)}; no prompt recorded`,
        );
        return undefined;
      }
      messages.push({ role, parts: [{ type: 'text', content }] });
    }
    return messages.length === 0 ? undefined : messages;
  }
  expressDiag.warn(
    `expected capture.prompt() to return a string or { role, content } messages, got ${describeValue(prompt)}; no prompt recorded`,
  );
  return undefined;
}

/** The default of `capture.response`: the body as text. */
function bodyAsText(tapped: TappedBody): string | undefined {
  if (tapped.kind !== 'json') return tapped.body as string;
  if (typeof tapped.body === 'string') return tapped.body;
  return JSON.stringify(tapped.body);
}

function answerText(
  capture: ResolvedCapture<unknown>,
  tapped: TappedBody,
  statusCode: number,
): string | undefined {
  const respond = capture.response;
  const answer =
    respond === undefined
      ? safely('serialising the response body', () => bodyAsText(tapped))
      : safely('capture.response', () =>
          respond(tapped.body, {
            kind: tapped.kind,
            events: tapped.events,
            truncated: tapped.truncated,
            statusCode,
          }),
        );
  if (answer === undefined || answer === null) return undefined;
  if (typeof answer !== 'string') {
    expressDiag.warn(
      `expected capture.response() to return a string, got ${describeValue(answer)}; no response recorded`,
    );
    return undefined;
  }
  return answer;
}

/**
 * Records the captured prompt (`gen_ai.input.messages`) and response (`gen_ai.output.messages`)
 * on the request span. Each text is cut to `maxBytes` UTF-8 bytes; `aqm.capture.truncated` says
 * when anything was cut, here or while the stream was collected. Never throws.
 */
export function recordCapture<Req>(
  span: Span,
  capture: ResolvedCapture<Req>,
  req: Req,
  tapped: TappedBody | undefined,
  statusCode: number,
  maxBytes: number,
): void {
  let truncated = tapped?.truncated ?? false;
  const cut = (text: string): string => {
    const result = truncateUtf8(text, maxBytes);
    truncated ||= result.truncated;
    return result.text;
  };

  const messages = inputMessages(safely('capture.prompt', () => capture.prompt(req)));
  if (messages !== undefined) {
    for (const message of messages) for (const part of message.parts) part.content = cut(part.content);
    span.setAttribute(ATTR_GEN_AI_INPUT_MESSAGES, JSON.stringify(messages));
  }

  const answer =
    tapped === undefined ? undefined : answerText(capture as ResolvedCapture<unknown>, tapped, statusCode);
  if (answer !== undefined) {
    const output = [
      { role: 'assistant', parts: [{ type: 'text', content: cut(answer) }], finish_reason: 'stop' },
    ];
    span.setAttribute(ATTR_GEN_AI_OUTPUT_MESSAGES, JSON.stringify(output));
  }
  if (truncated) span.setAttribute(ATTR_CAPTURE_TRUNCATED, true);
}
