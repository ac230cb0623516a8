// What an open trace keeps alive on the V8 heap (64-bit, no pointer compression: Node's build),
// measured after gc with spans held by the assembler (issue #26: counting text alone said 32 MiB
// where the heap held 126). An SDK span with no attributes keeps about 950 bytes (the span
// object, its context and ids, times, status and empty collections), a span decoded from OTLP by
// aqm-forwarder about 650; an attribute in an object past a dozen properties (a dictionary) about
// 50 besides its value; an event about 200, a link about 250. Each is counted here a little above
// what was measured: the bound is on what is held, so the estimate errs on the side of more.

/** A held span besides its name, attributes, events and links. */
export const SPAN_BYTES = 900;
/** A held content log record besides its body and attributes (a small object of our own). */
export const LOG_BYTES = 256;
/** An open trace's own entry: its record, arrays and map slot. */
export const TRACE_BYTES = 256;
/** An attribute's slot in its object, besides its key's characters and its value. */
export const ATTRIBUTE_BYTES = 40;
/** An event besides its name and attributes (object, time, attributes object). */
export const EVENT_BYTES = 160;
/** A link besides its attributes (object, span context and its two ids). */
export const LINK_BYTES = 256;
/** An array or object value besides its elements. */
export const CONTAINER_BYTES = 32;
/** An element slot of an array value, or a number or boolean. */
export const SLOT_BYTES = 8;
/** A string's header (map, hash, length: 16) and its padding to 8 bytes, on average. */
const STRING_HEADER_BYTES = 20;
/** Strings this short are counted at a byte a character without looking at them. */
const CHECKED_CHARS = 256;
/** A character V8 cannot store in a one-byte string: one in a string makes it two bytes a character. */
const WIDE_CHAR = /[\u0100-\uffff]/;

/**
 * A string's bytes on the heap: one byte a character, or two when it holds a character past
 * U+00FF (any emoji, CJK, Cyrillic...). Looking costs nothing on one-byte strings (the regular
 * expression cannot match one, V8 skips it) and stops at the first wide character otherwise.
 */
export function stringBytes(value: string): number {
  const { length } = value;
  return STRING_HEADER_BYTES + (length > CHECKED_CHARS && WIDE_CHAR.test(value) ? 2 * length : length);
}

/** A value's bytes, nested values counted one level down and then at a fixed cost. */
function valueBytes(value: unknown, nested: boolean): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value !== 'object' || value === null) return SLOT_BYTES;
  if (ArrayBuffer.isView(value)) return CONTAINER_BYTES + value.byteLength;
  if (nested) return 4 * CONTAINER_BYTES;
  if (Array.isArray(value)) {
    let bytes = CONTAINER_BYTES;
    for (const element of value as unknown[]) bytes += SLOT_BYTES + valueBytes(element, true);
    return bytes;
  }
  return CONTAINER_BYTES + attributesBytes(value as Record<string, unknown>, true);
}

/** What an attributes object held as it is costs (links' and resources' attributes). */
export function attributesBytes(attributes: unknown, nested = false): number {
  if (typeof attributes !== 'object' || attributes === null) return 0;
  let bytes = 0;
  for (const key of Object.keys(attributes)) {
    bytes += ATTRIBUTE_BYTES + key.length + valueBytes((attributes as Record<string, unknown>)[key], nested);
  }
  return bytes;
}

/** What a span's links cost (an SDK span holds them; the mapping never reads them). */
export function linksBytes(span: object): number {
  const links = (span as { links?: unknown }).links;
  if (!Array.isArray(links)) return 0;
  let bytes = 0;
  for (const link of links as unknown[]) {
    bytes += LINK_BYTES + attributesBytes((link as { attributes?: unknown } | null)?.attributes);
  }
  return bytes;
}

/**
 * What a span's resource costs when it is not the previous span's: the SDK's resource is the
 * provider's (counted as nothing: it lives as long as the provider, and its attributes are a
 * getter that may complain when read early), while the forwarder decodes one per request, kept
 * alive by its spans (counted by its attributes, once per run of spans sharing it).
 */
export function resourceBytes(resource: unknown): number {
  if (typeof resource !== 'object' || resource === null) return 0;
  const own = Object.getOwnPropertyDescriptor(resource, 'attributes');
  return own !== undefined && 'value' in own ? 2 * CONTAINER_BYTES + attributesBytes(own.value) : 0;
}
