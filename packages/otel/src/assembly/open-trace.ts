import type { LlmLogRecord } from '../mapping/llm-log-record.js';
import type { ReadableSpan } from '../sdk-types.js';

/** A trace being assembled. */
export interface OpenTrace {
  traceId: string;
  spans: ReadableSpan[];
  logs: LlmLogRecord[];
  /** When the last span (or, before any span, the last log) arrived. */
  lastActivityMs: number;
  /** Whether its local root span has arrived (completion is due at the end of the current call). */
  rootEnded: boolean;
  /**
   * When its root ended while a model call of it was still open (clock of the assembler): it waits
   * for those calls, and is recorded with them as they are if it completes first.
   */
  heldSinceMs?: number;
  /** Estimated bytes its spans and logs hold (see `OpenBytes`). */
  bytes: number;
}

/**
 * Whether a span is its process's root of the trace: no parent, or a parent from another process
 * (a remote span context). An invalid (all-zero) parent id counts as none.
 */
export function isLocalRoot(span: ReadableSpan): boolean {
  const parent = span.parentSpanContext;
  if (parent !== undefined) return parent.isRemote === true || !/[1-9a-f]/.test(parent.spanId ?? '');
  // SDK 1.x: `parentSpanId` without a context; a remote parent cannot be told apart there.
  const legacy = (span as { parentSpanId?: unknown }).parentSpanId;
  return typeof legacy !== 'string' || legacy === '';
}
