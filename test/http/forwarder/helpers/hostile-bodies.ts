// Bodies of a hostile sender (issue 26), built at the protobuf wire level or as JSON text.

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A length-delimited field: tag (wire type 2), length, payload. */
function field(id: number, payload: Buffer): Buffer {
  return Buffer.concat([varint(id * 8 + 2), varint(payload.length), payload]);
}

/** `bytes` of empty `ResourceSpans` (tag 0x0a, length 0): millions of objects once decoded. */
export function emptyResourceSpans(bytes: number): Buffer {
  const body = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 2) body[i] = 0x0a;
  return body;
}

/** One span (without ids) of `count` attributes `{ key: "k" }`: 5 bytes each on the wire. */
export function manyAttributes(count: number): Buffer {
  const attribute = field(9, field(1, Buffer.from('k')));
  const span = Buffer.concat(Array.from({ length: count }, () => attribute));
  return field(1, field(2, field(2, span)));
}

/** An OTLP/JSON traces request with one valid span whose attribute has `value`. */
export function jsonWithValue(value: unknown): Buffer {
  const span = {
    traceId: '01'.repeat(16),
    spanId: '02'.repeat(8),
    name: 's',
    attributes: [{ key: 'bad', value }],
  };
  return Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }));
}

/** `{"resourceSpans":[[[[...]]]]}`: arrays nested `depth` levels. */
export function jsonNestedArrays(depth: number): Buffer {
  return Buffer.from(`{"resourceSpans":${'['.repeat(depth)}${']'.repeat(depth)}}`);
}
