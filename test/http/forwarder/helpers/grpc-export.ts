import { type ChannelCredentials, Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';

/** The OTLP/gRPC methods, as the exporters call them. */
export const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
export const LOGS = '/opentelemetry.proto.collector.logs.v1.LogsService/Export';

/** Options of {@link grpcExport}. */
export interface GrpcExportOptions {
  method?: string;
  /** Sent as the `authorization` metadata `Bearer <token>`. */
  token?: string;
  /** Extra metadata, e.g. `x-api-key`. */
  metadata?: Record<string, string>;
  /** Compress the message with gzip (`grpc-encoding: gzip`), as exporters with compression do. */
  gzip?: boolean;
  credentials?: ChannelCredentials;
  /** Options of the channel, e.g. `grpc.ssl_target_name_override`. */
  channelOptions?: Record<string, string | number>;
}

/** The answer of one call: the response bytes, or the error with its code, details and trailers. */
export type GrpcAnswer = { ok: true; response: Buffer } | { ok: false; error: ServiceError };

/**
 * Sends `body` (an encoded `Export*ServiceRequest`, or any bytes) in one unary call with a raw
 * grpc-js client, on a channel of its own (closed after).
 */
export async function grpcExport(
  address: string,
  body: Buffer,
  options: GrpcExportOptions = {},
): Promise<GrpcAnswer> {
  const client = new Client(address, options.credentials ?? credentials.createInsecure(), {
    ...(options.gzip === true ? { 'grpc.default_compression_algorithm': 2 } : {}),
    // Larger than any forwarder bound here: the forwarder's limit is what is tested, not the client's.
    'grpc.max_send_message_length': -1,
    ...options.channelOptions,
  });
  const metadata = new Metadata();
  if (options.token !== undefined) metadata.set('authorization', `Bearer ${options.token}`);
  for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
  try {
    return await new Promise<GrpcAnswer>((resolve) => {
      client.makeUnaryRequest(
        options.method ?? TRACES,
        (value: Buffer) => value,
        (bytes: Buffer) => bytes,
        body,
        metadata,
        { deadline: Date.now() + 15_000 },
        (error, response) =>
          resolve(error ? { ok: false, error } : { ok: true, response: response ?? Buffer.alloc(0) }),
      );
    });
  } finally {
    client.close();
  }
}

/** Reads the fields of a protobuf message: varints as numbers, length-delimited as bytes. */
function fields(bytes: Buffer): Map<number, (number | Buffer)[]> {
  const out = new Map<number, (number | Buffer)[]>();
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: number | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const length = varint();
      value = bytes.subarray(at, at + length);
      at += length;
    } else throw new Error(`unexpected wire type ${wire}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

/** What the `grpc-status-details-bin` trailer of an error says (a `google.rpc.Status`). */
export interface StatusDetails {
  code: number;
  message: string;
  /** The `RetryInfo.retry_delay` in ms, when a detail is a RetryInfo. */
  retryDelayMs: number | undefined;
  typeUrls: string[];
}

/** Decodes the `grpc-status-details-bin` trailer of `error`; `undefined` when there is none. */
export function statusDetails(error: ServiceError): StatusDetails | undefined {
  const [raw] = error.metadata?.get('grpc-status-details-bin') ?? [];
  if (raw === undefined) return undefined;
  const status = fields(Buffer.from(raw as Buffer));
  const typeUrls: string[] = [];
  let retryDelayMs: number | undefined;
  for (const detail of status.get(3) ?? []) {
    const any = fields(detail as Buffer);
    const typeUrl = ((any.get(1)?.[0] as Buffer | undefined) ?? Buffer.alloc(0)).toString('utf8');
    typeUrls.push(typeUrl);
    if (typeUrl === 'type.googleapis.com/google.rpc.RetryInfo') {
      const retryInfo = fields((any.get(2)?.[0] as Buffer | undefined) ?? Buffer.alloc(0));
      const duration = fields((retryInfo.get(1)?.[0] as Buffer | undefined) ?? Buffer.alloc(0));
      const seconds = (duration.get(1)?.[0] as number | undefined) ?? 0;
      const nanos = (duration.get(2)?.[0] as number | undefined) ?? 0;
      retryDelayMs = seconds * 1000 + nanos / 1e6;
    }
  }
  return {
    code: (status.get(1)?.[0] as number | undefined) ?? 0,
    message: ((status.get(2)?.[0] as Buffer | undefined) ?? Buffer.alloc(0)).toString('utf8'),
    retryDelayMs,
    typeUrls,
  };
}

/** The `partial_success` of an `Export*ServiceResponse` (field 1: rejected count, error message). */
export function partialSuccess(response: Buffer): { rejected: number; errorMessage: string } | undefined {
  const partial = fields(response).get(1)?.[0] as Buffer | undefined;
  if (partial === undefined) return undefined;
  const inner = fields(partial);
  return {
    rejected: (inner.get(1)?.[0] as number | undefined) ?? 0,
    errorMessage: ((inner.get(2)?.[0] as Buffer | undefined) ?? Buffer.alloc(0)).toString('utf8'),
  };
}
