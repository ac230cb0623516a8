import { SpanStatusCode } from '@opentelemetry/api';
import { isLlmIsh } from './classify.js';
import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** Why a span failed: its status message, else its `exception` event's message, else `error.type`. */
function errorMessageOf(view: SpanView): string | undefined {
  const statusMessage = view.span.status?.message;
  if (typeof statusMessage === 'string' && statusMessage !== '') return statusMessage;
  for (const event of view.span.events ?? []) {
    if (event.name !== 'exception') continue;
    const message = event.attributes?.['exception.message'];
    if (typeof message === 'string' && message !== '') return message;
    const type = event.attributes?.['exception.type'];
    if (typeof type === 'string' && type !== '') return type;
  }
  return view.str('error.type');
}

/** The message of a convention's own error mark (e.g. Langfuse's level ERROR), or `undefined`. */
function conventionErrorOf(view: SpanView): string | undefined {
  for (const reader of READER_ORDER.error) {
    const message = ask(reader, 'error', view);
    if (message !== undefined) return message;
  }
  return undefined;
}

/**
 * A span's failure (status ERROR, or a convention's own error mark), or `undefined`. A status
 * ERROR with no message of its own takes the convention's message (Langfuse's `status_message`).
 */
function failureOf(view: SpanView): { message: string | undefined } | undefined {
  if (view.span.status?.code === SpanStatusCode.ERROR)
    return { message: errorMessageOf(view) ?? conventionErrorOf(view) };
  const message = conventionErrorOf(view);
  return message === undefined ? undefined : { message };
}

/**
 * `error` when the top-level span or any model-call/agent/chain span failed. The message is the
 * top-level span's when it has one, else the earliest failed span's.
 */
export function traceStatus(trace: TraceStructure): { status: 'success' | 'error'; errorMessage?: string } {
  let failed = false;
  let errorMessage: string | undefined;
  for (const view of trace.topFirst) {
    if (view !== trace.top && !isLlmIsh(trace.roles.get(view) ?? 'other')) continue;
    const failure = failureOf(view);
    if (failure === undefined) continue;
    failed = true;
    errorMessage ??= failure.message;
    if (errorMessage !== undefined) break;
  }
  if (!failed) return { status: 'success' };
  return errorMessage === undefined ? { status: 'error' } : { status: 'error', errorMessage };
}
