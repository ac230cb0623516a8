import type { Usage } from '@aqm/wire';
import { noteCountLeftOut } from '../notices.js';
import { ask } from './conventions/ask.js';
import { scopeName } from './conventions/read-helpers.js';
import { READER_ORDER } from './conventions/registry.js';
import type { TokenCounts } from './conventions/types.js';
import { spanModelOf } from './record-content.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** Beyond this many model calls in a trace, twins are not looked for (the check is quadratic). */
const MAX_TWIN_CHECKS = 64;

/**
 * A count as the wire accepts it: a non-negative safe integer (the service refuses a record with
 * any other, which would lose its prompt and response too). Anything else is left out, and said
 * once per reason (an OTLP int64 count may be as large as 2^63 - 1).
 */
function asCount(value: number | undefined): number | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  if (value < 0) noteCountLeftOut('negative');
  else if (!Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) noteCountLeftOut('too large');
  else if (!Number.isInteger(value)) noteCountLeftOut('not a whole number');
  else return value;
  return undefined;
}

/** `a + b` when it stays a safe integer; else `undefined`, said once. */
function safeSum(a: number, b: number): number | undefined {
  const sum = a + b;
  if (Number.isSafeInteger(sum)) return sum;
  noteCountLeftOut('sum too large');
  return undefined;
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
      totalTokens = safeSum(inputTokens, outputTokens);
    }
    if (inputTokens !== undefined || outputTokens !== undefined || totalTokens !== undefined) {
      return { inputTokens, outputTokens, totalTokens };
    }
  }
  return undefined;
}

/** A running sum of one count: `lost` once a sum went beyond the safe integers (it stays out). */
type Sum = number | undefined | 'lost';

function add(sum: Sum, value: number | undefined): Sum {
  if (value === undefined || sum === 'lost') return sum;
  return sum === undefined ? value : (safeSum(sum, value) ?? 'lost');
}

function settled(sum: Sum): number | undefined {
  return sum === 'lost' ? undefined : sum;
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
  return withoutTwins(trace.modelCalls.filter((view) => !inside.has(view)));
}

/**
 * Whether `b` is the same call as `a` seen by another instrumentation side by side (the Anthropic
 * SDK's own span beside OpenInference's or Traceloop's when a stream helper starts it as a
 * sibling): the same parent, another instrumentation scope, overlapping in time, the same model.
 * Parallel calls of one app come from one instrumentation, so they are never twins.
 */
function twins(a: SpanView, b: SpanView): boolean {
  if (a.parentSpanId !== b.parentSpanId || scopeName(a) === scopeName(b)) return false;
  if (a.startMs > b.endMs || b.startMs > a.endMs) return false;
  const modelA = spanModelOf(a);
  const modelB = spanModelOf(b);
  return modelA === undefined || modelB === undefined || modelA === modelB;
}

/** The calls with each twin after the first left out (a handful of calls: quadratic is fine, and bounded). */
function withoutTwins(calls: SpanView[]): SpanView[] {
  if (calls.length < 2 || calls.length > MAX_TWIN_CHECKS) return calls;
  const kept: SpanView[] = [];
  for (const call of calls) if (!kept.some((other) => twins(other, call))) kept.push(call);
  return kept;
}

/**
 * Token usage summed over the trace's model calls only (each count a non-negative safe integer,
 * as is each sum: one that is not is left out, the other counts kept), so an outer span that repeats its
 * children's totals (AI SDK `ai.generateText`, v7 `invoke_agent`) is not counted twice, and over
 * the outermost of nested model calls, so one call seen by two instrumentations is not either.
 * Only when no model call has usage is the top-level span's used.
 */
export function traceUsage(trace: TraceStructure): Usage | undefined {
  let seen = false;
  let input: Sum;
  let output: Sum;
  let total: Sum;
  for (const view of outermostModelCalls(trace)) {
    const counts = spanUsage(view);
    if (counts === undefined) continue;
    seen = true;
    input = add(input, counts.inputTokens);
    output = add(output, counts.outputTokens);
    total = add(total, counts.totalTokens);
  }
  const sum: TokenCounts | undefined = seen
    ? { inputTokens: settled(input), outputTokens: settled(output), totalTokens: settled(total) }
    : spanUsage(trace.top);
  if (sum === undefined) return undefined;
  const usage = toUsage(sum);
  return Object.keys(usage).length > 0 ? usage : undefined;
}
