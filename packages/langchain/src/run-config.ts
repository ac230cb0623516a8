/**
 * A run's LangChain `tags` and `metadata` (what the app passes as `{ tags, metadata }` in a call's
 * config) as `aqm.tags` and `aqm.metadata.<key>`, which `@aqm/otel` reads into the record's
 * metadata. LangChain's own bookkeeping is left out, and so are the ids that become
 * `session.id` / `user.id` (see `identityAttributes`).
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR } from './attributes.js';
import { isObject } from './message-view.js';
import { ID_KEYS } from './run-start.js';
import { truncateText } from './safe-json.js';

/** Metadata LangChain, LangGraph and LangSmith add themselves (`ls_provider`, `langgraph_node`…). */
const OWN_METADATA = /^(?:ls_|langgraph_|checkpoint_|__|LANGSMITH_|LANGCHAIN_|usage_metadata$)/;
/** Tags LangChain adds to the steps of a sequence, a map or a graph, and LangSmith's markers. */
const OWN_TAGS = /^(?:seq:step:\d+$|map:key:|graph:step:\d+$|langsmith:)/;
/** Bounds shared with `@aqm/otel`'s `withAqmAttributes`: 64 entries or tags, 200-character keys and tags. */
const MAX_ENTRIES = 64;
const MAX_LABEL_CHARS = 200;

/**
 * `aqm.metadata.<key>` for each string, finite number or boolean entry of the run's metadata
 * (strings cut at `maxValueChars`), and `aqm.tags` for its tags; other values are left out.
 *
 * @example
 * configAttributes({ tenant: 'acme', ls_provider: 'openai' }, ['beta', 'seq:step:1'], 32_768);
 * // { 'aqm.metadata.tenant': 'acme', 'aqm.tags': ['beta'] }
 */
export function configAttributes(metadata: unknown, tags: unknown, maxValueChars: number): Attributes {
  const attributes: Attributes = {};
  if (isObject(metadata)) {
    let kept = 0;
    for (const key of Object.keys(metadata)) {
      if (kept >= MAX_ENTRIES) break;
      if (key === '' || key.length > MAX_LABEL_CHARS || OWN_METADATA.test(key) || ID_KEYS.has(key)) continue;
      const value = metadata[key];
      if (typeof value === 'string')
        attributes[ATTR.aqmMetadataPrefix + key] = truncateText(value, maxValueChars);
      else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
        attributes[ATTR.aqmMetadataPrefix + key] = value;
      else continue;
      kept += 1;
    }
  }
  if (Array.isArray(tags)) {
    const kept: string[] = [];
    for (const tag of tags) {
      if (typeof tag !== 'string' || tag === '' || OWN_TAGS.test(tag)) continue;
      const label = tag.slice(0, MAX_LABEL_CHARS);
      if (!kept.includes(label) && kept.length < MAX_ENTRIES) kept.push(label);
    }
    if (kept.length > 0) attributes[ATTR.aqmTags] = kept;
  }
  return attributes;
}
