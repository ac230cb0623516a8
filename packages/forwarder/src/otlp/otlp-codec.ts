import protobuf from 'protobufjs/light.js';
import { OtlpDecodeError } from './decode-error.js';
import { DecodeBudget } from './decode-limits.js';
import { checkJsonRequest } from './json-request-check.js';
import { scanJsonBody } from './json-scan.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';
import { checkProtobufPrefix, checkProtobufRequest } from './protobuf-limits.js';

/** How a request body is encoded: `application/x-protobuf` or `application/json`. */
export type OtlpFormat = 'protobuf' | 'json';
/** The two signals the forwarder takes. */
export type OtlpSignal = 'traces' | 'logs';

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR).resolveAll();
const types = {
  traces: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
  logs: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
};
const responses = {
  traces: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  logs: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
};
const rpcStatus = root.lookupType('google.rpc.Status');

/**
 * The decoded request: the list under `resourceSpans` (traces) or `resourceLogs` (logs). Field
 * values are read through `otlp-values.ts`, which takes both protobufjs messages (bytes, Long) and
 * OTLP/JSON (hex ids, decimal strings).
 */
export type DecodedRequest = readonly Record<string, unknown>[];

/**
 * Decodes an OTLP export request body of `signal`. Throws {@link OtlpDecodeError} when it does
 * not decode (400) or holds more than `DECODE_LIMITS` (413). The body is checked against the
 * limits before it is decoded (protobuf: a walk of the wire format; JSON: a scan of its nesting and
 * values, then its elements and value shapes), so a hostile body costs little work.
 *
 * @example
 * const resourceSpans = decodeRequest('traces', 'protobuf', body);
 */
export function decodeRequest(signal: OtlpSignal, format: OtlpFormat, body: Buffer): DecodedRequest {
  const listKey = signal === 'traces' ? 'resourceSpans' : 'resourceLogs';
  const budget = new DecodeBudget(signal === 'traces' ? 'spans' : 'log records');
  if (format === 'protobuf') checkProtobufRequest(types[signal], body, budget);
  else scanJsonBody(body);
  let decoded: unknown;
  try {
    decoded = format === 'protobuf' ? types[signal].decode(body) : JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new OtlpDecodeError(
      `The body is not a valid OTLP ${signal} export request in ${format === 'protobuf' ? 'protobuf' : 'JSON'}: ${
        (error as Error).message
      }`,
    );
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw new OtlpDecodeError(`The body is not a valid OTLP ${signal} export request: expected an object`);
  }
  const list = (decoded as Record<string, unknown>)[listKey];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    throw new OtlpDecodeError(
      `The body is not a valid OTLP ${signal} export request: \`${listKey}\` is not a list`,
    );
  }
  if (format === 'json') checkJsonRequest(listKey, list, budget);
  return list as DecodedRequest;
}

/**
 * Checks the first bytes of a request body still arriving against `DECODE_LIMITS` (protobuf: the
 * wire walk as far as they go; JSON: nesting and value count), throwing what
 * {@link decodeRequest} would throw for the whole body, so a hostile body is refused (and the rest
 * of it not read) as soon as it has passed a limit.
 *
 * @example
 * checkRequestPrefix('traces', 'protobuf', firstBytes);
 */
export function checkRequestPrefix(signal: OtlpSignal, format: OtlpFormat, prefix: Buffer): void {
  if (format === 'protobuf') {
    checkProtobufPrefix(
      types[signal],
      prefix,
      new DecodeBudget(signal === 'traces' ? 'spans' : 'log records'),
    );
  } else {
    scanJsonBody(prefix);
  }
}

/**
 * The body of a 200 answer: an empty `Export*ServiceResponse`, or one with `partial_success`
 * counting what was refused and why.
 *
 * @example
 * reply.send(encodeExportResponse('traces', 'json', 2, 'spans without a valid trace id'));
 */
export function encodeExportResponse(
  signal: OtlpSignal,
  format: OtlpFormat,
  rejected: number,
  errorMessage: string,
): Buffer | string {
  const partialSuccess =
    rejected === 0 && errorMessage === ''
      ? undefined
      : signal === 'traces'
        ? { rejectedSpans: rejected, errorMessage }
        : { rejectedLogRecords: rejected, errorMessage };
  const body = partialSuccess === undefined ? {} : { partialSuccess };
  if (format === 'json') {
    // OTLP/JSON writes int64 as a decimal string.
    return JSON.stringify(body, (key, value) =>
      key === 'rejectedSpans' || key === 'rejectedLogRecords' ? String(value) : value,
    );
  }
  const type = responses[signal];
  return Buffer.from(type.encode(type.fromObject(body)).finish());
}

/**
 * The body of an error answer: a `google.rpc.Status` with a message, as OTLP/HTTP asks.
 *
 * @example
 * reply.code(400).send(encodeStatus('json', 3, 'bad body'));
 */
export function encodeStatus(format: OtlpFormat, code: number, message: string): Buffer | string {
  if (format === 'json') return JSON.stringify({ code, message });
  return Buffer.from(rpcStatus.encode(rpcStatus.fromObject({ code, message })).finish());
}
