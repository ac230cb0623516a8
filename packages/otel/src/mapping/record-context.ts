import { attempt } from './attempt.js';
import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { SpanView } from './span-view.js';
import type { TraceStructure } from './trace-structure.js';

/** Most retrieved documents kept per trace. */
export const MAX_CONTEXT_ITEMS = 100;
/** Set by AQM's own LangChain handler: a JSON string array of document texts. */
const AQM_DOCUMENTS = 'aqm.retrieval.documents';

function aqmDocuments(view: SpanView): string[] | undefined {
  const parsed = view.json(AQM_DOCUMENTS);
  if (!Array.isArray(parsed)) return undefined;
  return parsed.filter((item): item is string => typeof item === 'string' && item !== '');
}

/**
 * Retrieved documents of the whole trace, in span start order, without repeats: OpenInference
 * `retrieval.documents.*`, semconv `retrieval` spans' output, LangSmith retriever runs, and
 * `aqm.retrieval.documents`.
 */
export function traceContext(trace: TraceStructure): string[] | undefined {
  const seen = new Set<string>();
  for (const view of trace.views) {
    for (const reader of READER_ORDER.context) addDocuments(seen, ask(reader, 'context', view));
    const ours = attempt(() => aqmDocuments(view), undefined);
    addDocuments(seen, ours);
  }
  return seen.size > 0 ? [...seen] : undefined;
}

/** Adds documents to `seen` in order, as long as it holds fewer than {@link MAX_CONTEXT_ITEMS}. */
function addDocuments(seen: Set<string>, documents: readonly string[] | undefined): void {
  for (const document of documents ?? []) {
    if (seen.size >= MAX_CONTEXT_ITEMS) return;
    seen.add(document);
  }
}

function firstOnTrace(trace: TraceStructure, pick: 'session' | 'user'): string | undefined {
  for (const view of trace.topFirst) {
    for (const reader of READER_ORDER.identity) {
      const value = ask(reader, pick, view);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** Session and user ids: the top-level span's first, then any span's. */
export function traceIdentity(trace: TraceStructure): { sessionId?: string; userId?: string } {
  return { sessionId: firstOnTrace(trace, 'session'), userId: firstOnTrace(trace, 'user') };
}

/** The first non-empty string among `keys` of the spans' resource (top-level span first). */
export function resourceString(trace: TraceStructure, keys: readonly string[]): string | undefined {
  return firstAttribute(trace, keys, 'resource');
}

/**
 * A deployment fact (environment, version) for the trace: first from span attributes, where a
 * request-scoped integration such as `@aqm/express` puts it, then from the spans' resource.
 */
export function deploymentString(trace: TraceStructure, keys: readonly string[]): string | undefined {
  return firstAttribute(trace, keys, 'span') ?? resourceString(trace, keys);
}

/** One attribute's value; `undefined` when its getter throws (that key is skipped, not the record). */
function attributeValue(attributes: Record<string, unknown>, key: string): unknown {
  try {
    return attributes[key];
  } catch {
    return undefined;
  }
}

/** A resource of the SDK 2.x line, whose detected attributes may still be promises. */
interface DetectedResource {
  readonly attributes: Record<string, unknown>;
  readonly asyncAttributesPending?: boolean;
  waitForAsyncAttributes?(): Promise<void>;
}

/**
 * A resource's attributes, `undefined` while its detectors' values are pending (NodeSDK's
 * default detectors): reading them then logs "Accessing resource attributes before async
 * attributes settled" through diag for every trace and misses the detected values. They are
 * settled for the traces that follow, as OpenTelemetry's own batch processor does.
 */
function resourceAttributes(resource: DetectedResource | undefined): Record<string, unknown> | undefined {
  if (resource === undefined) return undefined;
  if (resource.asyncAttributesPending === true) {
    resource.waitForAsyncAttributes?.().catch(() => {});
    return undefined;
  }
  return resource.attributes;
}

/** The attributes of a view's span or of its resource; `undefined` when they cannot be read. */
function attributesOf(view: SpanView, source: 'span' | 'resource'): Record<string, unknown> | undefined {
  try {
    return source === 'span' ? view.span.attributes : resourceAttributes(view.span.resource);
  } catch {
    return undefined;
  }
}

function firstAttribute(
  trace: TraceStructure,
  keys: readonly string[],
  source: 'span' | 'resource',
): string | undefined {
  for (const view of trace.topFirst) {
    const attributes = attributesOf(view, source);
    if (attributes === undefined) continue;
    for (const key of keys) {
      const value = attributeValue(attributes, key);
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}
