import { isRecord } from '../json.js';
import type { SpanView } from '../span-view.js';
import { firstString, prefixedMetadata, scopeName, tokenCounts, variableStrings } from './read-helpers.js';
import type { ConventionReader, SpanRole, TokenCounts } from './types.js';

/** Where a step's input and output variables are. */
const LANGFUSE_STEP_KEYS = ['langfuse.observation.input', 'langfuse.observation.output'];

/** Langfuse's trace metadata holds no ids of its own to leave out. */
const NOTHING_EXCLUDED: ReadonlySet<string> = new Set();

/** `langfuse.observation.type` → span roles (`span`/`event` say nothing: other conventions decide). */
const OBSERVATION_TYPES: Record<string, SpanRole> = {
  generation: 'llm',
  agent: 'top',
  chain: 'top',
  tool: 'tool',
  retriever: 'retriever',
  embedding: 'other',
  evaluator: 'other',
  guardrail: 'other',
};

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Whether the observation's output is `observe()`'s record of a failure: level ERROR and the
 * output `{error: String(error)}`. That is the failure (its message is the record's error), not
 * an answer.
 */
function failureOutput(view: SpanView): boolean {
  if (view.str('langfuse.observation.level') !== 'ERROR') return false;
  const output = view.json('langfuse.observation.output');
  return isRecord(output) && Object.keys(output).length === 1 && typeof output.error === 'string';
}

/**
 * One side's count: `input` (or `output`) plus its detail buckets `input_<kind>` (`output_<kind>`).
 * Langfuse counts usage in disjoint buckets: `@langfuse/openai` and `@langfuse/langchain` take the
 * cached, audio and reasoning tokens out of `input`/`output` and report them as
 * `input_cached_tokens`, `input_cache_read`, `output_reasoning_tokens`…; the record wants the whole
 * count the model was billed for. OpenAI's own key names (`input_tokens`) are no detail buckets.
 */
function sideCount(details: Record<string, unknown>, side: 'input' | 'output'): number | undefined {
  const base = count(details[side]);
  if (base === undefined) return undefined;
  let sum = base;
  const prefix = `${side}_`;
  for (const key in details) {
    if (!key.startsWith(prefix) || key === `${side}_tokens`) continue;
    sum += count(details[key]) ?? 0;
  }
  return sum;
}

/** `usage_details` JSON: `{input, output, total, input_<kind>…}` (also OpenAI-style key names). */
function usageDetails(view: SpanView): TokenCounts | undefined {
  const details = view.json('langfuse.observation.usage_details');
  if (!isRecord(details)) return undefined;
  return tokenCounts(
    sideCount(details, 'input') ?? count(details.input_tokens) ?? count(details.prompt_tokens),
    sideCount(details, 'output') ?? count(details.output_tokens) ?? count(details.completion_tokens),
    count(details.total) ?? count(details.total_tokens),
  );
}

/**
 * Langfuse (`@langfuse/tracing`): `langfuse.observation.type`, `.input` / `.output` (string or
 * JSON), `.model.name`, `.usage_details`, `.level` / `.status_message`, trace-level
 * `langfuse.trace.input/output/metadata.*`; `session.id` / `user.id`; the provider only where
 * `@langfuse/langchain` copied LangChain's `ls_provider` into the observation's metadata.
 */
export const langfuseReader: ConventionReader = {
  name: 'langfuse',
  detect: (view) =>
    scopeName(view) === 'langfuse-sdk' ||
    view.get('langfuse.observation.type') !== undefined ||
    view.get('langfuse.internal.is_app_root') !== undefined,
  kind(view) {
    const type = view.str('langfuse.observation.type');
    return type === undefined ? undefined : OBSERVATION_TYPES[type];
  },
  prompt: (view) => view.messages('langfuse.observation.input') ?? view.messages('langfuse.trace.input'),
  response: (view) =>
    failureOutput(view)
      ? undefined
      : (view.messages('langfuse.observation.output') ?? view.messages('langfuse.trace.output')),
  model: (view) => firstString(view, ['langfuse.observation.model.name']),
  // `@langfuse/langchain` copies LangChain's run metadata onto the observation, `ls_provider` too.
  provider: (view) => firstString(view, ['langfuse.observation.metadata.ls_provider']),
  usage: (view) => view.memo('langfuse:usage', () => usageDetails(view)),
  stepValues: (view) => variableStrings(view, LANGFUSE_STEP_KEYS),
  session: (view) => firstString(view, ['session.id', 'langfuse.session.id']),
  user: (view) => firstString(view, ['user.id', 'langfuse.user.id']),
  error: (view) =>
    view.str('langfuse.observation.level') === 'ERROR'
      ? (view.str('langfuse.observation.status_message') ?? 'ERROR')
      : undefined,
  metadata: (view) => prefixedMetadata(view, 'langfuse.trace.metadata.', NOTHING_EXCLUDED),
};
