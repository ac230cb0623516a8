import type { Usage } from '@aqm/wire';
import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { TokenCounts } from './conventions/types.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** A count as the wire accepts it: a non-negative integer. */
function asCount(value: number | undefined): number | undefined {
  if (value === undefined || !Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value);
}

/** The first convention's token counts on a span, with the total derived when absent. */
function spanUsage(view: SpanView): TokenCounts | undefined {
  for (const reader of READER_ORDER.usage) {
    const counts = ask(reader, 'usage', view);
    if (counts === undefined) continue;
    const inputTokens = asCount(counts.inputTokens);
    const outputTokens = asCount(counts.outputTokens);
    let totalTokens = asCount(counts.totalTokens);
    if (totalTokens === undefined && inputTokens !== undefined && outputTokens !== undefined) {
      totalTokens = inputTokens + outputTokens;
    }
    if (inputTokens !== undefined || outputTokens !== undefined || totalTokens !== undefined) {
      return { inputTokens, outputTokens, totalTokens };
    }
  }
  return undefined;
}

function add(sum: number | undefined, value: number | undefined): number | undefined {
  return value === undefined ? sum : (sum ?? 0) + value;
}

function toUsage(counts: TokenCounts): Usage {
  const usage: Usage = {};
  if (counts.inputTokens !== undefined) usage.inputTokens = counts.inputTokens;
  if (counts.outputTokens !== undefined) usage.outputTokens = counts.outputTokens;
  if (counts.totalTokens !== undefined) usage.totalTokens = counts.totalTokens;
  return usage;
}

/**
 * The model calls that are not inside another model call. A model run whose client is instrumented
 * as well (a LangChain chat run around the `openai` package's call) is one call with two spans, each
 * carrying its token counts: it counts once, at the outer span. Linear: views in depth order, so a
 * parent is settled before its children (a parent not shallower is a cut cycle: no parent).
 */
function outermostModelCalls(trace: TraceStructure): SpanView[] {
  if (trace.modelCalls.length < 2) return trace.modelCalls;
  const byId = new Map<string, SpanView>();
  for (const view of trace.views) byId.set(view.spanId, view);
  const calls = new Set(trace.modelCalls);
  const inside = new Set<SpanView>();
  for (const view of [...trace.views].sort((a, b) => a.depth - b.depth)) {
    const parent = view.parentSpanId === undefined ? undefined : byId.get(view.parentSpanId);
    if (parent !== undefined && parent.depth < view.depth && (calls.has(parent) || inside.has(parent)))
      inside.add(view);
  }
  return trace.modelCalls.filter((view) => !inside.has(view));
}

/**
 * Token usage summed over the trace's model calls only, so an outer span that repeats its
 * children's totals (AI SDK `ai.generateText`, v7 `invoke_agent`) is not counted twice, and over
 * the outermost of nested model calls, so one call seen by two instrumentations is not either.
 * Only when no model call has usage is the top-level span's used.
 */
export function traceUsage(trace: TraceStructure): Usage | undefined {
  let sum: TokenCounts | undefined;
  for (const view of outermostModelCalls(trace)) {
    const counts = spanUsage(view);
    if (counts === undefined) continue;
    sum = {
      inputTokens: add(sum?.inputTokens, counts.inputTokens),
      outputTokens: add(sum?.outputTokens, counts.outputTokens),
      totalTokens: add(sum?.totalTokens, counts.totalTokens),
    };
  }
  sum ??= spanUsage(trace.top);
  return sum === undefined ? undefined : toUsage(sum);
}
