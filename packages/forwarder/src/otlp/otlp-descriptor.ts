import type { INamespace } from 'protobufjs';

// The OTLP 1.x messages this forwarder reads and writes, as a protobufjs JSON descriptor, vendored
// from opentelemetry-proto (opentelemetry/proto/{common,resource,trace,logs,collector}/v1/*.proto).
// `@opentelemetry/otlp-transformer` no longer ships generated decoders (only serializers), so the
// maintained protobufjs decodes from these definitions. Fields the forwarder never reads (links,
// dropped counts, severities, schema URLs) are left out on purpose: protobufjs skips unknown
// fields, so leaving them out costs no correctness and saves decoding them.

type Fields = Record<string, { type: string; id: number; rule?: 'repeated' }>;
const message = (fields: Fields, oneofs?: Record<string, { oneof: string[] }>) =>
  oneofs === undefined ? { fields } : { fields, oneofs };

const common = {
  AnyValue: message(
    {
      stringValue: { type: 'string', id: 1 },
      boolValue: { type: 'bool', id: 2 },
      intValue: { type: 'int64', id: 3 },
      doubleValue: { type: 'double', id: 4 },
      arrayValue: { type: 'ArrayValue', id: 5 },
      kvlistValue: { type: 'KeyValueList', id: 6 },
      bytesValue: { type: 'bytes', id: 7 },
    },
    {
      value: {
        oneof: [
          'stringValue',
          'boolValue',
          'intValue',
          'doubleValue',
          'arrayValue',
          'kvlistValue',
          'bytesValue',
        ],
      },
    },
  ),
  ArrayValue: message({ values: { rule: 'repeated', type: 'AnyValue', id: 1 } }),
  KeyValueList: message({ values: { rule: 'repeated', type: 'KeyValue', id: 1 } }),
  KeyValue: message({ key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } }),
  InstrumentationScope: message({
    name: { type: 'string', id: 1 },
    version: { type: 'string', id: 2 },
  }),
};

const C = 'opentelemetry.proto.common.v1';
const R = 'opentelemetry.proto.resource.v1';

const trace = {
  ResourceSpans: message({
    resource: { type: `${R}.Resource`, id: 1 },
    scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
  }),
  ScopeSpans: message({
    scope: { type: `${C}.InstrumentationScope`, id: 1 },
    spans: { rule: 'repeated', type: 'Span', id: 2 },
  }),
  Span: message({
    traceId: { type: 'bytes', id: 1 },
    spanId: { type: 'bytes', id: 2 },
    traceState: { type: 'string', id: 3 },
    parentSpanId: { type: 'bytes', id: 4 },
    flags: { type: 'fixed32', id: 16 },
    name: { type: 'string', id: 5 },
    kind: { type: 'int32', id: 6 },
    startTimeUnixNano: { type: 'fixed64', id: 7 },
    endTimeUnixNano: { type: 'fixed64', id: 8 },
    attributes: { rule: 'repeated', type: `${C}.KeyValue`, id: 9 },
    events: { rule: 'repeated', type: 'Event', id: 11 },
    status: { type: 'Status', id: 15 },
  }),
  Event: message({
    timeUnixNano: { type: 'fixed64', id: 1 },
    name: { type: 'string', id: 2 },
    attributes: { rule: 'repeated', type: `${C}.KeyValue`, id: 3 },
  }),
  Status: message({ message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } }),
};

const logs = {
  ResourceLogs: message({
    resource: { type: `${R}.Resource`, id: 1 },
    scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
  }),
  ScopeLogs: message({
    scope: { type: `${C}.InstrumentationScope`, id: 1 },
    logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
  }),
  LogRecord: message({
    body: { type: `${C}.AnyValue`, id: 5 },
    attributes: { rule: 'repeated', type: `${C}.KeyValue`, id: 6 },
    flags: { type: 'fixed32', id: 8 },
    traceId: { type: 'bytes', id: 9 },
    spanId: { type: 'bytes', id: 10 },
    eventName: { type: 'string', id: 12 },
  }),
};

/** The OTLP definitions the forwarder uses, for `protobuf.Root.fromJSON`. */
export const OTLP_DESCRIPTOR: INamespace = {
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: { nested: { v1: { nested: common } } },
            resource: {
              nested: {
                v1: {
                  nested: {
                    Resource: message({ attributes: { rule: 'repeated', type: `${C}.KeyValue`, id: 1 } }),
                  },
                },
              },
            },
            trace: { nested: { v1: { nested: trace } } },
            logs: { nested: { v1: { nested: logs } } },
            collector: {
              nested: {
                trace: {
                  nested: {
                    v1: {
                      nested: {
                        ExportTraceServiceRequest: message({
                          resourceSpans: {
                            rule: 'repeated',
                            type: 'opentelemetry.proto.trace.v1.ResourceSpans',
                            id: 1,
                          },
                        }),
                        ExportTraceServiceResponse: message({
                          partialSuccess: { type: 'ExportTracePartialSuccess', id: 1 },
                        }),
                        ExportTracePartialSuccess: message({
                          rejectedSpans: { type: 'int64', id: 1 },
                          errorMessage: { type: 'string', id: 2 },
                        }),
                      },
                    },
                  },
                },
                logs: {
                  nested: {
                    v1: {
                      nested: {
                        ExportLogsServiceRequest: message({
                          resourceLogs: {
                            rule: 'repeated',
                            type: 'opentelemetry.proto.logs.v1.ResourceLogs',
                            id: 1,
                          },
                        }),
                        ExportLogsServiceResponse: message({
                          partialSuccess: { type: 'ExportLogsPartialSuccess', id: 1 },
                        }),
                        ExportLogsPartialSuccess: message({
                          rejectedLogRecords: { type: 'int64', id: 1 },
                          errorMessage: { type: 'string', id: 2 },
                        }),
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    google: {
      nested: {
        rpc: {
          nested: {
            Status: message({ code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } }),
          },
        },
      },
    },
  },
};
