import { isRecord } from '../json.js';
import type { SpanView } from '../span-view.js';
import type { MetadataValue, TokenCounts } from './types.js';

/** The first non-empty string attribute among `keys`. */
export function firstString(view: SpanView, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = view.str(key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The first finite number attribute among `keys`. */
export function firstNumber(view: SpanView, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = view.num(key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Token counts, or `undefined` when none of them is present. */
export function tokenCounts(
  inputTokens: number | undefined,
  outputTokens: number | undefined,
  totalTokens: number | undefined,
): TokenCounts | undefined {
  if (inputTokens === undefined && outputTokens === undefined && totalTokens === undefined) return undefined;
  return { inputTokens, outputTokens, totalTokens };
}

/**
 * Attributes under `prefix` as metadata entries, leaving out `excluded` suffixes (the ids that
 * become `sessionId`/`userId`). Arrays become JSON text.
 */
export function prefixedMetadata(
  view: SpanView,
  prefix: string,
  excluded: ReadonlySet<string>,
): Array<[string, MetadataValue]> {
  const out: Array<[string, MetadataValue]> = [];
  for (const key of view.keys.withPrefix(prefix)) {
    if (excluded.has(key.slice(prefix.length))) continue;
    const value = view.attributes[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out.push([key, value]);
    else if (Array.isArray(value)) out.push([key, JSON.stringify(value)]);
  }
  return out;
}

/** The instrumentation scope name of a span ('' when unknown). */
export function scopeName(view: SpanView): string {
  const scope = view.span.instrumentationScope as { name?: unknown } | undefined;
  return typeof scope?.name === 'string' ? scope.name : '';
}

/** Most variables read from one step value (a run's inputs or outputs object). */
const MAX_VARIABLES = 32;

/**
 * The string values of the variables objects among `keys` (JSON attributes such as a chain run's
 * inputs `{context, question}`). Serialised LangChain objects and messages are not variables.
 */
export function variableStrings(view: SpanView, keys: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const key of keys) {
    const parsed = view.json(key);
    if (!isRecord(parsed) || 'lc' in parsed || 'role' in parsed) continue;
    let taken = 0;
    for (const name in parsed) {
      if (taken >= MAX_VARIABLES) break;
      taken += 1;
      const value = parsed[name];
      if (typeof value === 'string' && value !== '') out.push(value);
    }
  }
  return out.length > 0 ? out : undefined;
}
