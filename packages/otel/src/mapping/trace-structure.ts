import type { ReadableSpan } from '../sdk-types.js';
import { attempt } from './attempt.js';
import { classifySpan, isLlmIsh } from './classify.js';
import { scopeName } from './conventions/read-helpers.js';
import type { SpanRole } from './conventions/types.js';
import type { LlmLogRecord } from './llm-log-record.js';
import { promptOf, responseOf } from './record-content.js';
import { SpanView } from './span-view.js';

/** One trace's spans as the mapping reads them. */
export interface TraceStructure {
  /** Every readable span, in start order. */
  views: SpanView[];
  roles: Map<SpanView, SpanRole>;
  /** Model-call spans, in start order. */
  modelCalls: SpanView[];
  /** The top-level interaction: the highest LLM-ish span (fewest ancestors), earliest on ties. */
  top: SpanView;
  /** Every view once, the top-level span first, then the rest in start order. */
  topFirst: SpanView[];
}

/** Marks, in `assignDepths`, a view on the walk in progress (real depths are never negative). */
const ON_WALK = -1;

/** Sets each view's depth: its number of ancestors present in the trace (cycles cut). */
function assignDepths(views: readonly SpanView[]): void {
  const byId = new Map<string, SpanView>();
  for (const view of views) byId.set(view.spanId, view);
  const known = new Map<SpanView, number>();
  for (const view of views) {
    const path: SpanView[] = [];
    let current: SpanView | undefined = view;
    let base = -1;
    while (current !== undefined) {
      const depth = known.get(current);
      // Back on this walk: a cycle, cut here as if the path had no parent.
      if (depth === ON_WALK) break;
      if (depth !== undefined) {
        base = depth;
        break;
      }
      path.push(current);
      known.set(current, ON_WALK);
      current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId);
    }
    // Walk back down the path: each span is one deeper than its parent.
    for (let i = path.length - 1; i >= 0; i -= 1) {
      base += 1;
      known.set(path[i]!, base);
    }
  }
  for (const view of views) view.depth = known.get(view) ?? 0;
}

/** Whether `a` beats `b` (same depth) as the top-level interaction: see {@link pickTop}. */
function encloses(a: SpanView, b: SpanView): boolean {
  return a.endMs - a.startMs > b.endMs - b.startMs;
}

/**
 * The highest LLM-ish span (fewest ancestors). Among several at that depth, a chain, agent or
 * workflow beats a model call, and of those the longest one wins: instrumentations that do not
 * parent their spans (Traceloop's LangChain handler takes the active span, so every run is a
 * sibling under the request span; callbacks may start them out of order) leave the outer chain
 * as the one that encloses the others. Otherwise the earliest wins.
 */
function pickTop(views: readonly SpanView[], roles: ReadonlyMap<SpanView, SpanRole>): SpanView | undefined {
  let top: SpanView | undefined;
  for (const view of views) {
    const role = roles.get(view)!;
    if (!isLlmIsh(role)) continue;
    if (top === undefined || view.depth < top.depth) {
      top = view;
      continue;
    }
    if (view.depth > top.depth) continue;
    const topRole = roles.get(top)!;
    // Views are in start order, so keeping `top` on ties keeps the earliest.
    if (role === 'top' && (topRole !== 'top' || encloses(view, top))) top = view;
  }
  return top;
}

/**
 * Instrumentations that trace a chain's model calls themselves but parent every run to the active
 * span only: with no span around the chain, each run (prompt template, parser, the chain) is a
 * trace of its own, and one without a model call is a piece of an interaction, not one.
 */
const UNPARENTED_RUN_SCOPES = new Set(['@traceloop/instrumentation-langchain']);

/** Whether a top-level span without a model call below it may stand for an interaction. */
function standsAlone(view: SpanView): boolean {
  return !UNPARENTED_RUN_SCOPES.has(scopeName(view));
}

function hasBothSides(view: SpanView): boolean {
  return attempt(() => Boolean(promptOf(view)) && Boolean(responseOf(view)), false);
}

/**
 * Reads a trace's spans (skipping any that cannot even be read), joins the log records by span
 * id, classifies every span and picks the top-level interaction. `undefined` when the trace has
 * no model call and its top-level interaction lacks a prompt or a response.
 */
export function structureTrace(
  spans: readonly ReadableSpan[],
  logs: readonly LlmLogRecord[],
  nowMs: number,
): TraceStructure | undefined {
  const views: SpanView[] = [];
  for (const span of spans) {
    const view = attempt(() => new SpanView(span, nowMs), undefined);
    if (view !== undefined) views.push(view);
  }
  if (views.length === 0) return undefined;
  views.sort((a, b) => a.startMs - b.startMs);
  if (logs.length > 0) {
    const byId = new Map<string, SpanView>();
    for (const view of views) byId.set(view.spanId, view);
    for (const log of logs) byId.get(log.spanId)?.logs.push(log);
  }
  const roles = new Map<SpanView, SpanRole>();
  const modelCalls: SpanView[] = [];
  for (const view of views) {
    const role = attempt(() => classifySpan(view), 'other');
    roles.set(view, role);
    if (role === 'llm') modelCalls.push(view);
  }
  assignDepths(views);
  const top = pickTop(views, roles);
  // A trace without a model call still counts when its top-level interaction carries both sides
  // itself: an app whose model client is not instrumented, captured at its request (@aqm/express).
  if (modelCalls.length === 0 && !(top !== undefined && standsAlone(top) && hasBothSides(top)))
    return undefined;
  const chosen = top ?? modelCalls[0]!;
  const topFirst = [chosen];
  for (const view of views) if (view !== chosen) topFirst.push(view);
  return { views, roles, modelCalls, top: chosen, topFirst };
}
