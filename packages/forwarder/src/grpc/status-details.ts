/**
 * The `grpc-status-details-bin` trailer of a refusal the sender should retry later: a
 * `google.rpc.Status` holding one `google.protobuf.Any` of `google.rpc.RetryInfo`, whose
 * `retry_delay` the OTLP exporters (the Collector's, Go's, Python's) wait before sending again.
 * Written by hand: the three messages take a few bytes, not worth a schema.
 */

/** The type URL of `google.rpc.RetryInfo` in an `Any`. */
export const RETRY_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.RetryInfo';

/** Appends protobuf fields to a list of chunks (varints and length-delimited fields only). */
class ProtoWriter {
  readonly #chunks: Buffer[] = [];

  /** A varint field (`int32`, `int64` of a safe integer). Zero is left out, as proto3 does. */
  varint(field: number, value: number): this {
    if (value === 0) return this;
    this.#chunks.push(varint(field << 3), varint(value));
    return this;
  }

  /** A length-delimited field (`string`, `bytes`, an embedded message). Empty is left out. */
  bytes(field: number, value: Buffer | string): this {
    const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    if (data.length === 0) return this;
    this.#chunks.push(varint((field << 3) | 2), varint(data.length), data);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

/** A base-128 varint of a non-negative safe integer. */
function varint(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`Expected a non-negative safe integer, got ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/**
 * A `google.rpc.Status` (`code`, `message`) whose details hold a `RetryInfo` asking to wait
 * `retryDelayMs` (whole seconds and nanos of a `google.protobuf.Duration`).
 *
 * @example
 * metadata.set('grpc-status-details-bin', retryInfoStatus(14, 'The queue is full', 5000));
 */
export function retryInfoStatus(code: number, message: string, retryDelayMs: number): Buffer {
  const seconds = Math.floor(retryDelayMs / 1000);
  const nanos = Math.round((retryDelayMs - seconds * 1000) * 1e6);
  const duration = new ProtoWriter().varint(1, seconds).varint(2, nanos).finish();
  // RetryInfo { Duration retry_delay = 1 }; present even when zero, so the delay is explicit.
  const retryInfo = Buffer.concat([varint((1 << 3) | 2), varint(duration.length), duration]);
  const any = new ProtoWriter().bytes(1, RETRY_INFO_TYPE_URL).bytes(2, retryInfo).finish();
  return new ProtoWriter().varint(1, code).bytes(2, message).bytes(3, any).finish();
}
