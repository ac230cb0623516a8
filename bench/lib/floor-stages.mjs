// The stages bench/floor.mjs times, each over the same ended spans, in one process, with no network:
// what the stock exporter does per trace, what ours does, the least any prompt/response record can
// cost, and handing spans to a worker thread. Each stage returns the bytes it produced, so the work
// cannot be optimised away and the report can show sizes.

import { deserialize, serialize } from 'node:v8';
import { resolveOptions, TracePipeline } from '@aqm/otel/pipeline';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { leastRecord } from './least-record.mjs';

/** The stock exporter's batch: `OTLPTraceExporter` serialises what `BatchSpanProcessor` hands it, 512 spans. */
const OTLP_BATCH_SPANS = 512;
/** Traces between flushes of the in-process pipelines: a batch's worth, as in a steady app. */
const FLUSH_EVERY_TRACES = 256;
/** Traces per message to the worker (the bench's probe posts once per turn: 10 traces a turn). */
const TRACES_PER_MESSAGE = 10;
const APPLICATION_ID = '00000000-0000-4000-8000-000000000001';

/**
 * The least a record of the contract can cost: the prompt and response read from the chat span's
 * messages (one `JSON.parse` each), the fields this workload has, both spans with their
 * attributes, one `JSON.stringify`, UTF-8 into a reused buffer. No classification, no conventions,
 * no sanitising, no queue: nothing a product could skip on an arbitrary trace is left to skip.
 * `spans`: `'all'` as the contract has it; `'content-once'` leaves the messages out of the chat span
 * (the record would carry the prompt and response once); `'none'` sends no spans (`spans` is
 * optional in a submission, but the service's trace would then show none).
 */
function leastRecords(traces, spans) {
  const body = Buffer.allocUnsafe(1 << 20);
  return () => {
    let bytes = 0;
    for (const [chat, root] of traces) {
      bytes += body.write(JSON.stringify(leastRecord(chat, root, [root, chat], spans)), 0);
    }
    return bytes;
  };
}

/** The stock exporter's work per batch: OTLP transform, JSON, UTF-8 (`JsonTraceSerializer`). */
function otlpSerialise(spans) {
  return () => {
    let bytes = 0;
    for (let i = 0; i < spans.length; i += OTLP_BATCH_SPANS)
      bytes += JsonTraceSerializer.serializeRequest(spans.slice(i, i + OTLP_BATCH_SPANS)).byteLength;
    return bytes;
  };
}

/** `BatchSpanProcessor`'s own work: `onEnd` per span and its export calls, to an exporter that does nothing. */
function batchProcessor(traces) {
  const exporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const processor = new BatchSpanProcessor(exporter, { maxQueueSize: 1 << 16 });
  return async () => {
    for (let i = 0; i < traces.length; i += 1) {
      for (const span of traces[i]) processor.onEnd(span);
      if ((i + 1) % FLUSH_EVERY_TRACES === 0) await processor.forceFlush();
    }
    await processor.forceFlush();
    return 0;
  };
}

/** Ours as shipped (`TracePipeline`: assembly, mapping, masking off, queue, sender) with a client that accepts at once. */
function oursPipeline(traces) {
  let bytes = 0;
  const client = {
    evaluations: {
      submitSerialized: async (_id, bodies) => {
        for (const body of bodies) bytes += body.byteLength;
        return { accepted: bodies.length };
      },
    },
  };
  const pipeline = new TracePipeline(resolveOptions({ client, applicationId: APPLICATION_ID }, {}));
  return async () => {
    bytes = 0;
    for (let i = 0; i < traces.length; i += 1) {
      pipeline.addSpans(traces[i]);
      if ((i + 1) % FLUSH_EVERY_TRACES === 0) await pipeline.forceFlush();
    }
    await pipeline.forceFlush();
    return bytes;
  };
}

/**
 * Handing the spans to a worker at the cheapest measured: each span flattened into one array of
 * strings and numbers, `v8.serialize` on the app's side and `deserialize` on the worker's (what
 * `postMessage` does), 10 traces per message.
 */
function handOver(traces) {
  return () => {
    let bytes = 0;
    for (let i = 0; i < traces.length; i += TRACES_PER_MESSAGE) {
      const flat = [];
      for (const trace of traces.slice(i, i + TRACES_PER_MESSAGE)) {
        for (const span of trace) {
          const context = span.spanContext();
          flat.push(
            span.name,
            span.kind,
            context.traceId,
            context.spanId,
            span.parentSpanContext?.spanId ?? '',
          );
          flat.push(span.startTime[0], span.startTime[1], span.endTime[0], span.endTime[1], span.status.code);
          const keys = Object.keys(span.attributes);
          flat.push(keys.length);
          for (const key of keys) flat.push(key, span.attributes[key]);
        }
      }
      const message = serialize(flat);
      bytes += message.byteLength;
      if (deserialize(message).length !== flat.length) throw new Error('hand-over lost data');
    }
    return bytes;
  };
}

/**
 * Handing the spans over as bytes: every string UTF-8 encoded (`encodeInto`) into one buffer per
 * message, numbers into a float array beside it, and decoded again on the other side (`TextDecoder`).
 * A transferred `ArrayBuffer` is not copied by `postMessage`, so this is the least a hand-over of
 * the spans' data can cost, short of reading the app's span objects from the worker, which V8 does
 * not allow.
 */
function handOverBytes(traces) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // Reused: a pool the worker would hand back, so no allocation is counted against the hand-over.
  const text = new Uint8Array(64 * 1024);
  const numbers = new Float64Array(2048);
  return () => {
    let bytes = 0;
    for (let i = 0; i < traces.length; i += TRACES_PER_MESSAGE) {
      let offset = 0;
      let n = 0;
      const put = (value) => {
        const { written } = encoder.encodeInto(value, text.subarray(offset));
        numbers[n++] = written;
        offset += written;
      };
      for (const trace of traces.slice(i, i + TRACES_PER_MESSAGE)) {
        for (const span of trace) {
          const context = span.spanContext();
          put(span.name);
          put(context.traceId);
          put(context.spanId);
          put(span.parentSpanContext?.spanId ?? '');
          numbers[n++] = span.kind;
          numbers[n++] = span.startTime[0];
          numbers[n++] = span.startTime[1];
          numbers[n++] = span.endTime[0];
          numbers[n++] = span.endTime[1];
          const keys = Object.keys(span.attributes);
          numbers[n++] = keys.length;
          for (const key of keys) {
            put(key);
            const value = span.attributes[key];
            if (typeof value === 'string') put(value);
            else numbers[n++] = -1 - Number(value); // a number, kept apart from string lengths
          }
        }
      }
      bytes += offset;
      // The worker's side: every string decoded back.
      let at = 0;
      let strings = 0;
      for (let k = 0; k < n; k += 1) {
        const length = numbers[k];
        if (length >= 0 && at + length <= offset && Number.isInteger(length)) {
          decoder.decode(text.subarray(at, at + length));
          at += length;
          strings += 1;
        }
      }
      if (strings === 0) throw new Error('hand-over lost data');
    }
    return bytes;
  };
}

/**
 * The stages over `traces` (each `[chat, root]`, in the order they ended).
 * @param {import('@opentelemetry/sdk-trace-base').ReadableSpan[][]} traces
 */
export function floorStages(traces) {
  const spans = traces.flat();
  return {
    'otlp-serialise': otlpSerialise(spans),
    'batch-processor': batchProcessor(traces),
    ours: oursPipeline(traces),
    'least-record': leastRecords(traces, 'all'),
    'least-record-content-once': leastRecords(traces, 'content-once'),
    'least-record-no-spans': leastRecords(traces, 'none'),
    'hand-over': handOver(traces),
    'hand-over-bytes': handOverBytes(traces),
  };
}
