import type { TraceStructure } from './trace-structure.js';

/** JSON bytes every record has whatever its content: ids, times, status, the `spans` array. */
const RECORD_FLOOR_BYTES = 120;
/** JSON bytes every wire span has: spanId, name, kind, times, status, the `attributes` object. */
const SPAN_FLOOR_BYTES = 130;

/**
 * A lower bound of the JSON bytes of the record a trace becomes, computed without building it, so
 * that a full queue can refuse a trace before paying for its mapping. Without a mask every string
 * attribute is sent (cut to `maxValueChars`), and its UTF-8 bytes are at least its characters; a
 * mask may shorten values, so with one only the fixed floors count.
 */
export function recordSizeFloor(trace: TraceStructure, maxValueChars: number, masked: boolean): number {
  let bytes = RECORD_FLOOR_BYTES;
  for (const view of trace.views) {
    bytes += SPAN_FLOOR_BYTES;
    if (masked) continue;
    const attributes = view.attributes;
    for (const key in attributes) {
      const value = attributes[key];
      if (typeof value === 'string')
        bytes += Math.min(key.length, maxValueChars) + Math.min(value.length, maxValueChars);
    }
  }
  return bytes;
}
