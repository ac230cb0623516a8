/**
 * What a run's span records when the run ends: outputs, usage, tool results, documents, errors.
 */
import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { ATTR } from './attributes.js';
import { chainOutputMessages } from './chain-values.js';
import { contentText, messagesJson } from './genai-messages.js';
import { llmOutcome } from './llm-result.js';
import { isObject, viewMessage } from './message-view.js';
import type { OpenRun } from './open-runs.js';
import type { ContentOptions } from './run-start.js';
import { safeStringify, truncateText } from './safe-json.js';

const MESSAGE_LIST_FACTOR = 4;

/**
 * Records an error on a span: the exception event, `error.type` and an ERROR status with the message.
 *
 * @example
 * recordError(span, new Error('boom')); // status ERROR "boom", error.type "Error"
 */
export function recordError(span: Span, error: unknown, maxChars = 2048): void {
  const isError = error instanceof Error;
  const message = truncateText(isError ? error.message : safeStringify(error, maxChars), maxChars);
  const type =
    (isError && error.name !== '' ? error.name : undefined) ??
    (isObject(error) && typeof error.name === 'string' && error.name !== '' ? error.name : undefined) ??
    '_OTHER';
  span.recordException(isError ? error : { name: type, message });
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Ends a model run: output messages, finish reasons, usage and response model. */
export function endModelRun(run: OpenRun, output: unknown, options: ContentOptions): void {
  const streamed =
    run.streamedDropped > 0 ? `${run.streamed}…[truncated ${run.streamedDropped} chars]` : run.streamed;
  const outcome = llmOutcome(output, streamed, options.maxValueChars);
  const { span } = run;
  if (options.captureContent && outcome.messages.length > 0) {
    span.setAttribute(
      ATTR.outputMessages,
      messagesJson(outcome.messages, options.maxValueChars * MESSAGE_LIST_FACTOR),
    );
  }
  if (outcome.finishReasons.length > 0) span.setAttribute(ATTR.responseFinishReasons, outcome.finishReasons);
  if (outcome.usage.inputTokens !== undefined)
    span.setAttribute(ATTR.usageInputTokens, outcome.usage.inputTokens);
  if (outcome.usage.outputTokens !== undefined)
    span.setAttribute(ATTR.usageOutputTokens, outcome.usage.outputTokens);
  if (outcome.responseId !== undefined) span.setAttribute(ATTR.responseId, outcome.responseId);
  if (outcome.responseModel !== undefined) {
    span.setAttribute(ATTR.responseModel, outcome.responseModel);
    // The request named no model (many wrappers only know it from the response): name the span after the answering one.
    if (run.model === undefined) span.updateName(`${run.operation} ${outcome.responseModel}`);
  }
}

/** Ends a chain or agent run with its output as the assistant's message. */
export function endChainRun(run: OpenRun, outputs: unknown, options: ContentOptions): void {
  if (!options.captureContent) return;
  const messages = chainOutputMessages(outputs, options.maxValueChars);
  run.span.setAttribute(
    ATTR.outputMessages,
    messagesJson(messages, options.maxValueChars * MESSAGE_LIST_FACTOR),
  );
}

/**
 * Ends a tool run with its result. The output may be a `ToolMessage` (its content is the result;
 * status `error` means the tool failed and its error was handed back to the model) or any value.
 */
export function endToolRun(run: OpenRun, output: unknown, options: ContentOptions): void {
  const { span } = run;
  const view = viewMessage(output);
  const result =
    view !== undefined
      ? contentText(view.content, options.maxValueChars)
      : safeStringify(output === undefined ? '' : output, options.maxValueChars);
  if (view?.toolCallId !== undefined) span.setAttribute(ATTR.toolCallId, view.toolCallId);
  if (options.captureContent) span.setAttribute(ATTR.toolCallResult, result);
  if (view?.status === 'error') {
    span.setAttribute(ATTR.errorType, 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: truncateText(result, 2048) });
  }
}

/** Ends a retriever run with its documents' text as `aqm.retrieval.documents` (the first ones, within 4× the value cap). */
export function endRetrieverRun(run: OpenRun, documents: unknown, options: ContentOptions): void {
  if (!options.captureContent) return;
  const budget = options.maxValueChars * MESSAGE_LIST_FACTOR;
  const texts: string[] = [];
  let total = 0;
  for (const document of Array.isArray(documents) ? documents : []) {
    const text =
      isObject(document) && typeof document.pageContent === 'string'
        ? truncateText(document.pageContent, options.maxValueChars)
        : safeStringify(document, options.maxValueChars);
    total += text.length;
    // Retrievers return the most relevant first, so the tail is what gives way.
    if (texts.length > 0 && total > budget) break;
    texts.push(text);
  }
  run.span.setAttribute(ATTR.retrievalDocuments, JSON.stringify(texts));
}
