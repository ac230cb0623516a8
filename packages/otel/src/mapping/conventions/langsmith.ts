import { isRecord } from '../json.js';
import type { SpanView } from '../span-view.js';
import { firstString, prefixedMetadata, variableStrings } from './read-helpers.js';
import type { ConventionReader, MetadataValue, SpanRole } from './types.js';

const METADATA_PREFIX = 'langsmith.metadata.';
const SESSION_KEYS = ['session_id', 'thread_id', 'conversation_id'];
const USER_KEYS = ['user_id'];
const ID_KEYS = new Set([...SESSION_KEYS, ...USER_KEYS]);
/**
 * Run metadata that is LangSmith's own bookkeeping, not the app's: `ls_*` (its reserved keys, the
 * model and provider among them, read as such), `usage_metadata` (read as usage) and the
 * `LANGSMITH_*` / `LANGCHAIN_*` environment it copies into every run.
 */
const OWN_METADATA = /^(?:ls_|usage_metadata$|LANGSMITH_|LANGCHAIN_)/;
// Full attribute keys built once: a key concatenated per call must be hashed on every lookup.
const SESSION_ATTRIBUTES = SESSION_KEYS.map((key) => METADATA_PREFIX + key);
const USER_ATTRIBUTES = USER_KEYS.map((key) => METADATA_PREFIX + key);

/** Where a step's input and output variables are. */
const LANGSMITH_STEP_KEYS = ['gen_ai.prompt', 'gen_ai.completion'];

/** LangSmith run types (`langsmith.span.kind`) → span roles. */
const RUN_TYPES: Record<string, SpanRole> = {
  llm: 'llm',
  chain: 'top',
  tool: 'tool',
  retriever: 'retriever',
  embedding: 'other',
  prompt: 'other',
  parser: 'other',
};

/** `{documents: [{pageContent}]}` (or a bare array of documents) from a retriever run's outputs. */
function retrievedDocuments(view: SpanView): string[] | undefined {
  const outputs = view.json('gen_ai.completion');
  const list = Array.isArray(outputs) ? outputs : isRecord(outputs) ? outputs.documents : undefined;
  if (!Array.isArray(list)) return undefined;
  const documents: string[] = [];
  for (const document of list) {
    const content = isRecord(document) ? (document.pageContent ?? document.page_content) : document;
    if (typeof content === 'string' && content !== '') documents.push(content);
  }
  return documents.length > 0 ? documents : undefined;
}

/**
 * A failed run's error. LangSmith's OTel mode sets status OK when it first writes a run and
 * ERROR when the run fails, but the SDK keeps the first OK: the failure shows as the `exception`
 * event it records with the run's error (and the run's missing outputs).
 */
function runError(view: SpanView): string | undefined {
  if (view.get('langsmith.span.kind') === undefined) return undefined;
  for (const event of view.span.events ?? []) {
    if (event.name !== 'exception') continue;
    const message = event.attributes?.['exception.message'] ?? event.attributes?.['exception.type'];
    return typeof message === 'string' && message !== '' ? message : 'exception';
  }
  return undefined;
}

/** `langsmith.metadata.*` without LangSmith's own entries and the session and user ids. */
function appMetadata(view: SpanView): Array<[string, MetadataValue]> {
  return prefixedMetadata(view, METADATA_PREFIX, ID_KEYS).filter(
    ([key]) => !OWN_METADATA.test(key.slice(METADATA_PREFIX.length)),
  );
}

/**
 * LangSmith's OTel mode: `langsmith.span.kind` (the run type), `gen_ai.prompt` /
 * `gen_ai.completion` as JSON of the run's inputs/outputs, `langsmith.metadata.*`,
 * `langsmith.is_root` (set only by LangSmith's own span processor). Model, provider and usage are on
 * `gen_ai.*` keys, read as semconv. A failed run is marked by its `exception` event only (see
 * {@link runError}).
 */
export const langsmithReader: ConventionReader = {
  name: 'langsmith',
  detect: (view) =>
    view.get('langsmith.span.kind') !== undefined || view.get('langsmith.trace.name') !== undefined,
  kind(view) {
    const runType = view.str('langsmith.span.kind');
    return runType === undefined ? undefined : (RUN_TYPES[runType] ?? 'other');
  },
  prompt: (view) => view.messages('gen_ai.prompt'),
  response: (view) => view.messages('gen_ai.completion'),
  context: (view) =>
    view.str('langsmith.span.kind') === 'retriever'
      ? view.memo('langsmith:context', () => retrievedDocuments(view))
      : undefined,
  stepValues: (view) => variableStrings(view, LANGSMITH_STEP_KEYS),
  session: (view) => firstString(view, SESSION_ATTRIBUTES),
  user: (view) => firstString(view, USER_ATTRIBUTES),
  error: runError,
  metadata: appMetadata,
};
