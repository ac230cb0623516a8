import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import { promptOf } from './record-content.js';
import { containsText } from './text-contains.js';
import type { TraceStructure } from './trace-structure.js';

/**
 * Shortest step value taken for context wrapped around the question: shorter values are a
 * template's parameters (a country, a language, a tone), not retrieved text.
 */
const MIN_CONTEXT_CHARS = 20;
/** Most retrieved documents and step values looked for in the model's message, per trace. */
const MAX_CANDIDATES = 16;
/** Most step values read per trace (short ones, skipped at once, included). */
const MAX_STEP_VALUES = 256;
/** Only this long a start of each candidate is looked for: bounded work, and a match all the same. */
const NEEDLE_CHARS = 256;

/** The trace's prompt, and the context that wrapped it in the model's message (when it was wrapped). */
export interface PromptChoice {
  prompt: string | undefined;
  /** Step values that wrapped the question in the model's message, to add to the record's context. */
  wrapping: string[];
}

/** A candidate's start, trimmed, as looked for in the model's message. */
function needleOf(text: string): string {
  return text.trim().slice(0, NEEDLE_CHARS);
}

/**
 * The string values of the trace's pipeline steps (neither the top-level span nor a model call),
 * in span order, produced lazily: the caller stops at its budget, so a large trace's steps are
 * not all parsed.
 */
function* stepValues(trace: TraceStructure): Generator<string> {
  for (const view of trace.views) {
    if (view === trace.top || trace.roles.get(view) === 'llm') continue;
    for (const reader of READER_ORDER.stepValues) yield* ask(reader, 'stepValues', view) ?? [];
  }
}

/**
 * What, besides the question, the model's message carries that came from elsewhere in the trace:
 * `undefined` when nothing does (the message is a template's text around the question), `[]`
 * when retrieved documents do (they are context already), else the step values that do (a
 * `context` variable filled by an untraced retrieval).
 */
function wrappingOf(
  trace: TraceStructure,
  question: string,
  message: string,
  documents: readonly string[],
): string[] | undefined {
  let budget = MAX_CANDIDATES;
  for (const document of documents) {
    if (budget === 0) return undefined;
    budget -= 1;
    if (containsText(message, needleOf(document))) return [];
  }
  const wrapping: string[] = [];
  // Values looked at, short ones included, so that a trace of many steps costs a bounded amount.
  let looked = 0;
  for (const value of stepValues(trace)) {
    if (budget === 0 || looked >= MAX_STEP_VALUES) break;
    looked += 1;
    const trimmed = value.trim();
    if (trimmed.length < MIN_CONTEXT_CHARS || wrapping.includes(value)) continue;
    budget -= 1;
    // A value holding the question is the question (or the whole prompt), not what wrapped it.
    if (containsText(trimmed, question)) continue;
    if (containsText(message, needleOf(trimmed))) wrapping.push(value);
  }
  return wrapping.length > 0 ? wrapping : undefined;
}

/** The earliest model call's prompt (its last user message), the top-level span excluded. */
function modelMessage(trace: TraceStructure): string | undefined {
  for (const view of trace.modelCalls) {
    if (view === trace.top) continue;
    const prompt = promptOf(view);
    if (prompt !== undefined) return prompt;
  }
  return undefined;
}

/**
 * The trace's prompt: what the user asked, as the model saw it.
 *
 * - A model call at the top: its last user message.
 * - A chain, agent or request around model calls: the model's last user message (a template
 *   chain's root input is only its variables: `"France"` for "What is the capital of France?"),
 *   unless that message is the root input wrapped in retrieved context (RAG): the root input is
 *   contained in the message, and so is a retrieved document or another step's variable (a
 *   `context` filled by an untraced retrieval). Then the root input is the question, and the
 *   wrapping goes to the record's context. A template's own text is found nowhere else in the
 *   trace, which is what tells the two shapes apart.
 * - No model call with a prompt: the top-level span's own input.
 *
 * Every containment check is linear-time and bounded (see `text-contains.ts`).
 */
export function choosePrompt(trace: TraceStructure, documents: readonly string[]): PromptChoice {
  const root: string | undefined = promptOf(trace.top);
  if (trace.roles.get(trace.top) === 'llm') return { prompt: root ?? modelMessage(trace), wrapping: [] };
  const message = modelMessage(trace);
  if (message === undefined) return { prompt: root, wrapping: [] };
  if (root === undefined) return { prompt: message, wrapping: [] };
  const question = root.trim();
  if (question === message.trim()) return { prompt: root, wrapping: [] };
  if (containsText(message, question)) {
    const wrapping = wrappingOf(trace, question, message, documents);
    if (wrapping !== undefined) return { prompt: root, wrapping };
  }
  return { prompt: message, wrapping: [] };
}
