import { conventionsOf } from './classify.js';
import { ask } from './conventions/ask.js';
import { READER_ORDER } from './conventions/registry.js';
import type { MetadataValue } from './conventions/types.js';
import type { AqmTraceValues } from './record-attributes.js';
import { resourceString } from './record-context.js';
import type { TraceStructure } from './trace-structure.js';

/** Most metadata entries per record (the wire takes a flat map; a span could carry hundreds). */
export const MAX_METADATA_ENTRIES = 64;

/** Where the trace's merged `aqm.tags` go: the record has no field for tags. */
export const TAGS_METADATA_KEY = 'aqm.tags';

/**
 * Flat metadata: `service.name`, `aqm.convention` (the conventions detected, comma-separated),
 * `aqm.tags` (the trace's tags as a JSON array), the `aqm.metadata.<key>` entries under their bare
 * key (never replacing the three before), then the conventions' own metadata (`ai.telemetry.metadata.*`, `langsmith.metadata.*`,
 * `traceloop.association.properties.*`, `langfuse.trace.metadata.*`), the top-level span's first,
 * the first value of a key winning, at most {@link MAX_METADATA_ENTRIES} entries.
 */
export function traceMetadata(
  trace: TraceStructure,
  ours?: Pick<AqmTraceValues, 'metadata' | 'tags'>,
): Map<string, MetadataValue> {
  const metadata = new Map<string, MetadataValue>();
  const serviceName = resourceString(trace, ['service.name']);
  if (serviceName !== undefined) metadata.set('service.name', serviceName);
  const conventions = conventionsOf(trace.views);
  if (conventions.length > 0) metadata.set('aqm.convention', conventions.join(','));
  if (ours?.tags !== undefined) metadata.set(TAGS_METADATA_KEY, JSON.stringify(ours.tags));
  for (const [key, value] of ours?.metadata ?? []) {
    if (metadata.size >= MAX_METADATA_ENTRIES) return metadata;
    if (!metadata.has(key)) metadata.set(key, value);
  }
  for (const view of trace.topFirst) {
    for (const reader of READER_ORDER.metadata) {
      const entries = ask(reader, 'metadata', view) ?? [];
      for (const [key, value] of entries) {
        if (metadata.size >= MAX_METADATA_ENTRIES) return metadata;
        if (!metadata.has(key) && (typeof value !== 'number' || Number.isFinite(value)))
          metadata.set(key, value);
      }
    }
  }
  return metadata;
}
