import { SpanStatusCode } from '@opentelemetry/api';
import { isLlmIsh } from './classify.js';
import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import { responseOf } from './record-content.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** A failed span's message, when it says one. */
interface Failure {
  message: string | undefined;
}

/** The message of a span's first `exception` event (its `exception.message`, else `exception.type`). */
function exceptionMessageOf(view: SpanView): string | undefined {
  for (const event of view.span.events ?? []) {
    if (event.name !== 'exception') continue;
    const message = event.attributes?.['exception.message'];
    if (typeof message === 'string' && message !== '') return message;
    const type = event.attributes?.['exception.type'];
    if (typeof type === 'string' && type !== '') return type;
  }
  return undefined;
}

function hasException(view: SpanView): boolean {
  return (view.span.events ?? []).some((event) => event.name === 'exception');
}

/** Why a span failed: its status message, else its `exception` event's message or type, else `error.type`. */
function errorMessageOf(view: SpanView): string | undefined {
  const statusMessage = view.span.status?.message;
  if (typeof statusMessage === 'string' && statusMessage !== '') return statusMessage;
  return exceptionMessageOf(view) ?? view.str('error.type');
}

/** The message of a convention's own error mark (e.g. Langfuse's level ERROR), or `undefined`. */
function conventionErrorOf(view: SpanView): string | undefined {
  for (const reader of READER_ORDER.error) {
    const message = ask(reader, 'error', view);
    if (message !== undefined) return message;
  }
  return undefined;
}

/** A span's explicit failure: status ERROR, or a convention's error mark. */
function markedFailureOf(view: SpanView): Failure | undefined {
  if (view.span.status?.code === SpanStatusCode.ERROR)
    return { message: errorMessageOf(view) ?? conventionErrorOf(view) };
  const message = conventionErrorOf(view);
  return message === undefined ? undefined : { message };
}

/** Whether a model call that ended after `view` answered (a retry that recovered from its failure). */
function answeredLater(view: SpanView, trace: TraceStructure): boolean {
  return trace.modelCalls.some(
    (call) => call !== view && call.endMs > view.endMs && responseOf(call) !== undefined,
  );
}

/**
 * A model call's or the top-level span's failure: marked (see {@link markedFailureOf}), or an
 * `exception` event on a span that has no output and that no later model call answered for. A
 * span with an exception event and an output handled the error (a retry inside the call), as
 * does a later call that answered: both are a success. SDKs that write a run's status before it
 * ends (LangSmith's OTel mode writes OK first) leave only the event and the missing output.
 */
function interactionFailureOf(view: SpanView, trace: TraceStructure): Failure | undefined {
  const marked = markedFailureOf(view);
  if (marked !== undefined) return marked;
  if (!hasException(view) || responseOf(view) !== undefined || answeredLater(view, trace)) return undefined;
  return { message: errorMessageOf(view) };
}

/**
 * The app's own root span's failure (status ERROR or a convention's error mark on a span with no
 * parent in the trace that is not itself a model call, agent or chain), counted only when a model
 * call, agent or chain carries an `exception` event: a request can fail for reasons that have
 * nothing to do with the model's answer (a database after it), and then the record is a success.
 */
function rootFailureOf(trace: TraceStructure): Failure | undefined {
  const interaction = trace.views.filter((view) => isLlmIsh(trace.roles.get(view) ?? 'other'));
  const thrown = interaction.find(hasException);
  if (thrown === undefined) return undefined;
  for (const view of trace.views) {
    if (view.depth !== 0 || interaction.includes(view)) continue;
    const failure = markedFailureOf(view);
    if (failure !== undefined) return { message: failure.message ?? exceptionMessageOf(thrown) };
  }
  return undefined;
}

/**
 * `error` when the interaction failed, from all the evidence: the top-level span or a model call,
 * agent or chain with status ERROR, a convention's error mark (Langfuse level ERROR), or an
 * `exception` event and no output (see {@link interactionFailureOf}); or the app's root span
 * failed while one of them carries an exception event (see {@link rootFailureOf}). Tool and
 * retriever spans alone never make the trace an error. The message is the top-level span's when
 * it has one, else the earliest failed span's, else the root's: a status message, else an
 * exception's message or type, else `error.type` or the convention's message.
 */
export function traceStatus(trace: TraceStructure): { status: 'success' | 'error'; errorMessage?: string } {
  let failed = false;
  let errorMessage: string | undefined;
  for (const view of trace.topFirst) {
    if (view !== trace.top && !isLlmIsh(trace.roles.get(view) ?? 'other')) continue;
    const failure = interactionFailureOf(view, trace);
    if (failure === undefined) continue;
    failed = true;
    errorMessage ??= failure.message;
    if (errorMessage !== undefined) break;
  }
  if (!failed || errorMessage === undefined) {
    const root = rootFailureOf(trace);
    if (root !== undefined) {
      failed = true;
      errorMessage ??= root.message;
    }
  }
  if (!failed) return { status: 'success' };
  return errorMessage === undefined ? { status: 'error' } : { status: 'error', errorMessage };
}
