/** `gen_ai.operation.name` values of a model call (semconv, Traceloop's current format). */
const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'completion', 'generate']);
/** Vercel AI SDK `ai.operationId` values of a model call. */
const AI_SDK_CALLS = new Set([
  'ai.generateText.doGenerate',
  'ai.streamText.doStream',
  'ai.generateObject.doGenerate',
  'ai.streamObject.doStream',
]);

/**
 * Whether a span is a model call from the attributes it was started with, so that a call whose
 * instrumentation never ends its span (OpenInference and Traceloop end it only on success) is
 * still seen. Runs in `onStart` for every span on the app's thread: a handful of key lookups, the
 * kind attributes each instrumentation sets at start (reference §8): `openinference.span.kind`
 * LLM, `gen_ai.operation.name` chat/…, legacy Traceloop `llm.request.type`, LangSmith's
 * `langsmith.span.kind` llm, Langfuse's `langfuse.observation.type` generation, the AI SDK's
 * `ai.operationId`. The first kind key present decides, as in `classifySpan`.
 */
export function startsAsModelCall(attributes: Readonly<Record<string, unknown>>): boolean {
  const openinference = attributes['openinference.span.kind'];
  if (openinference !== undefined) return openinference === 'LLM' || openinference === 'llm';
  const operation = attributes['gen_ai.operation.name'];
  if (operation !== undefined) return typeof operation === 'string' && LLM_OPERATIONS.has(operation);
  const requestType = attributes['llm.request.type'];
  if (requestType !== undefined) return requestType !== 'rerank' && requestType !== 'embedding';
  const langsmith = attributes['langsmith.span.kind'];
  if (langsmith !== undefined) return langsmith === 'llm';
  const langfuse = attributes['langfuse.observation.type'];
  if (langfuse !== undefined) return langfuse === 'generation';
  const operationId = attributes['ai.operationId'];
  return typeof operationId === 'string' && AI_SDK_CALLS.has(operationId);
}

/**
 * Whether a span may be a model call whose kind is set only after it started: OpenInference's
 * tracer starts every span without attributes and sets them at once after `onStart`. Such spans
 * are remembered and confirmed when their trace's root ends.
 */
export function setsKindAfterStart(span: {
  readonly instrumentationScope?: { readonly name?: string };
}): boolean {
  return span.instrumentationScope?.name?.startsWith('@arizeai/openinference-') === true;
}
