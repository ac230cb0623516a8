// The pipelines under test, each on its own NodeTracerProvider (not registered globally):
//   ours — AqmSpanProcessor (assembles, maps, masks hooks, JSON per the contract, bounded retrying queue);
//   ours-disk — the same with a `persistDir` (overflow mode, memory first; the scenario passes the folder);
//   ours-wal — the same with `persistMode: 'write-ahead'`: each trace logged to disk in onEnd();
//   otlp — BatchSpanProcessor(OTLPTraceExporter) with default settings: what OpenTelemetry users have;
//   otlp-noloss — the same with its span queue raised to hold the whole burst, so it drops nothing
//     either: the like-for-like comparison of the work per delivered trace;
//   langfuse — Langfuse v5's LangfuseSpanProcessor (what a user would install instead: it filters the
//     spans to the LLM ones, masks, and hands them to the stock BatchSpanProcessor + OTLP exporter),
//     pointed at the sink, its span queue raised as otlp-noloss's is so that it drops nothing;
//   bare — no processor at all: the app's own cost of making the spans, to subtract from the others.
import { AqmSpanProcessor } from '@aqm/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { LeastRecordProcessor } from './least-processor.mjs';
import { WorkerSpanProcessor } from './worker-processor.mjs';

export const VARIANTS = ['ours', 'otlp', 'otlp-noloss', 'langfuse', 'bare'];

/** Langfuse's module, loaded by `loadVariant('langfuse')` only: a child of another variant does not load it. */
let langfuse;

/**
 * Loads what `name` needs beyond the modules every variant imports (`@langfuse/otel` for `langfuse`),
 * before `makeVariant(name)`. Apart so that the other variants' processes do not load it (and
 * `bench/compare.mjs` can measure commits whose node_modules lack it).
 */
export async function loadVariant(name) {
  if (name === 'langfuse' || name === 'langfuse-all') langfuse ??= await import('@langfuse/otel');
}

/** Spans of a trace each variant sends: Langfuse's default filter keeps the GenAI span only. */
export const SPANS_SENT = { langfuse: 1 };

/**
 * @param {'ours' | 'otlp' | 'otlp-noloss' | 'bare'} name
 * @param {{ sinkUrl: string, aqm?: Record<string, unknown>, spanQueue?: number }} options `aqm`: extra
 *   AqmSpanProcessor options (queue bounds; the API key and application id come from AQM_API_KEY /
 *   AQM_APPLICATION_ID); `spanQueue`: the span queue of otlp-noloss.
 */
export function makeVariant(name, { sinkUrl, aqm = {}, spanQueue = 2048 }) {
  if (name === 'ours' || name === 'ours-disk' || name === 'ours-wal') {
    if (name !== 'ours' && typeof aqm.persistDir !== 'string') {
      throw new TypeError(`${name} needs aqm.persistDir`);
    }
    const mode = name === 'ours-wal' ? { persistMode: 'write-ahead' } : {};
    const processor = new AqmSpanProcessor({ baseUrl: sinkUrl, ...aqm, ...mode });
    return {
      provider: new NodeTracerProvider({ spanProcessors: [processor] }),
      stats: () => processor.stats(),
    };
  }
  if (name === 'ours-worker' || name === 'ours-worker-50ms') {
    // Issue 22's probe: ours' pipeline in a worker thread (bench/lib/worker-processor.mjs), spans
    // posted once per event-loop turn, or (-50ms) every 50 ms or 512 spans.
    const batching = name === 'ours-worker-50ms' ? { postMs: 50, postSpans: 512 } : {};
    const processor = new WorkerSpanProcessor({ baseUrl: sinkUrl, ...aqm }, batching);
    return {
      provider: new NodeTracerProvider({ spanProcessors: [processor] }),
      stats: () => processor.stats(),
    };
  }
  if (name === 'otlp') {
    const exporter = new OTLPTraceExporter({ url: `${sinkUrl}/v1/traces` });
    return {
      provider: new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }),
      stats: () => undefined,
    };
  }
  if (name === 'otlp-noloss') {
    // forceFlush() sends every queued batch at once: the exporter's limit of 30 concurrent exports
    // would reject (and lose) the rest, so it is raised along with the queue.
    const exporter = new OTLPTraceExporter({
      url: `${sinkUrl}/v1/traces`,
      concurrencyLimit: Math.ceil(spanQueue / 512) + 30,
    });
    const batch = new BatchSpanProcessor(exporter, { maxQueueSize: Math.max(2048, spanQueue) });
    return { provider: new NodeTracerProvider({ spanProcessors: [batch] }), stats: () => undefined };
  }
  if (name === 'langfuse' || name === 'langfuse-all') {
    // Its constructor builds the BatchSpanProcessor with no queue size of its own, so the standard
    // OTEL_BSP_MAX_QUEUE_SIZE sets it (this child process runs this variant only). Everything else
    // is its defaults: its span filter, its mask hook, its media scan, the exporter it builds.
    if (langfuse === undefined)
      throw new Error("call loadVariant('langfuse') before makeVariant('langfuse')");
    process.env.OTEL_BSP_MAX_QUEUE_SIZE = String(Math.max(2048, spanQueue));
    const processor = new langfuse.LangfuseSpanProcessor({
      publicKey: 'pk-lf-bench',
      secretKey: 'sk-lf-bench',
      baseUrl: sinkUrl,
      // A probe: every span exported (both of the trace, as the stock pipeline and ours send).
      ...(name === 'langfuse-all' ? { shouldExportSpan: () => true } : {}),
    });
    return { provider: new NodeTracerProvider({ spanProcessors: [processor] }), stats: () => undefined };
  }
  if (name === 'least' || name === 'least-content-once') {
    // Issue 30's probes: the least record of the contract, built in onEnd() and posted like ours;
    // -content-once leaves the messages out of the spans (a record the contract does not have).
    const processor = new LeastRecordProcessor({
      baseUrl: sinkUrl,
      apiKey: process.env.AQM_API_KEY,
      applicationId: process.env.AQM_APPLICATION_ID,
      contentOnce: name === 'least-content-once',
    });
    return { provider: new NodeTracerProvider({ spanProcessors: [processor] }), stats: () => undefined };
  }
  if (name === 'bare') {
    return { provider: new NodeTracerProvider(), stats: () => undefined };
  }
  throw new RangeError(`unknown variant ${name}`);
}
