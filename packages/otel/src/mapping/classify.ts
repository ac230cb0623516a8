import { ask, detects } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { ConventionName, SpanRole } from './conventions/types.js';
import type { SpanView } from './span-view.js';

/** Keys naming a model: with no convention's kind on the span, their presence marks a model call (Langfuse's rule). */
const MODEL_KEYS = [
  'gen_ai.request.model',
  'gen_ai.response.model',
  'llm.model_name',
  'langfuse.observation.model.name',
];

/**
 * What a span is: the first convention that classifies it (reference §8 order); else a model
 * call if it names a model; else `top` for a span its SDK marked as the app's root
 * (`langsmith.is_root`, `langfuse.internal.is_app_root`); else `other`.
 */
export function classifySpan(view: SpanView): SpanRole {
  for (const reader of READER_ORDER.kind) {
    const role = ask(reader, 'kind', view);
    if (role !== undefined) return role;
  }
  for (const key of MODEL_KEYS) if (view.str(key) !== undefined) return 'llm';
  if (view.get('langsmith.is_root') === true || view.get('langfuse.internal.is_app_root') === true)
    return 'top';
  return 'other';
}

/** Interaction-level spans: model calls and the agents/chains/workflows around them. */
export function isLlmIsh(role: SpanRole): boolean {
  return role === 'llm' || role === 'top';
}

/** The conventions seen on any of the spans, in a fixed order. */
export function conventionsOf(views: readonly SpanView[]): ConventionName[] {
  const seen: ConventionName[] = [];
  for (const reader of READER_ORDER.all) {
    for (const view of views) {
      if (detects(reader, view)) {
        seen.push(reader.name);
        break;
      }
    }
  }
  return seen;
}
