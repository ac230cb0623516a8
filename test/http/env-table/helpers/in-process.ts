import type { AqmClient } from '@aqm/client';
import { startForwarder } from '@aqm/forwarder';
import { AqmSpanProcessor } from '@aqm/otel';
import { resolveOptions } from '@aqm/otel/pipeline';
import type { Trace } from '@aqm/wire';
import { diag, ROOT_CONTEXT, SpanKind, type Tracer } from '@opentelemetry/api';
import { llmTraceSpans, postOtlp, protoBody } from '../../forwarder/helpers/otlp-bodies.js';
import { captureDiag } from '../../otel/helpers/capture-diag.js';
import { endChatSpan, providerWith } from '../../otel/helpers/llm-trace.js';
import { waitFor } from '../../otel/helpers/wait.js';
import type { Observation, Probe, WalkContext } from './samples.js';

/** The environment of a probe: the connection, less what it leaves out, plus the variable. */
export function envFor(ctx: WalkContext, probe: Probe): Record<string, string> {
  const env: Record<string, string> = {
    AQM_API_KEY: ctx.apiKey,
    AQM_BASE_URL: ctx.baseUrl,
    AQM_APPLICATION_ID: ctx.applicationId,
    ...probe.also,
    [probe.name]: probe.value,
  };
  for (const name of probe.unset ?? []) delete env[name];
  return env;
}

/** Runs `work` with `process.env` holding `env` in place of every AQM_* variable, stderr captured. */
export async function withEnv<T>(
  env: Record<string, string>,
  work: (stderr: () => string) => Promise<T>,
): Promise<T> {
  const saved = { ...process.env };
  for (const name of Object.keys(process.env)) if (name.startsWith('AQM_')) delete process.env[name];
  Object.assign(process.env, env);
  const write = process.stderr.write;
  let text = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return await work(() => text);
  } finally {
    process.stderr.write = write;
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

/** The record of `traceId`, or `null` when the service has none. */
export async function recordOf(
  client: AqmClient,
  applicationId: string,
  traceId: string,
): Promise<Trace | null> {
  try {
    return await client.traces.get(applicationId, traceId);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

function endTrace(tracer: Tracer): string {
  const root = tracer.startSpan('answer', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  endChatSpan(tracer, root, 'walk question?', 'walk answer.');
  root.end();
  return root.spanContext().traceId;
}

/**
 * `@aqm/otel`: an `AqmSpanProcessor` built with no option but what the probe needs, one trace
 * ended and flushed; `resolveOptions` shows what it took from the environment.
 */
export async function probeOtel(ctx: WalkContext, client: AqmClient, probe: Probe): Promise<Observation> {
  const env = envFor(ctx, probe);
  return withEnv(env, async (stderr) => {
    const capture = captureDiag();
    try {
      const processor = new AqmSpanProcessor({ batchDelayMs: 0 });
      const provider = providerWith(processor);
      const traceId = endTrace(provider.getTracer('env-walk'));
      await processor.forceFlush();
      await provider.shutdown();
      const lines = [...capture.at('warn'), ...capture.at('error')];
      // After the processor's lines are taken: resolving again says the same warnings again.
      let resolved: Record<string, unknown> | undefined;
      try {
        resolved = { ...resolveOptions({}, env) };
      } catch {
        resolved = undefined;
      }
      return {
        accepted: lines.length === 0,
        record: await recordOf(client, ctx.applicationId, traceId),
        lines,
        debugLines: stderr()
          .split('\n')
          .filter((line) => line.startsWith('@aqm/otel debug:')).length,
        ...(resolved === undefined ? {} : { resolved }),
      };
    } finally {
      diag.disable();
    }
  });
}

/**
 * `@aqm/forwarder`: `startForwarder` with no option but a free port, one LLM trace posted as OTLP
 * (with the ingest token when the probe sets one), and closed (which delivers what it holds). A
 * configuration it refuses rejects the start: the message is the bin's one line.
 */
export async function probeForwarder(
  ctx: WalkContext,
  client: AqmClient,
  probe: Probe,
): Promise<Observation> {
  const env = envFor(ctx, probe);
  return withEnv(env, async () => {
    const capture = captureDiag();
    try {
      let forwarder: Awaited<ReturnType<typeof startForwarder>>;
      try {
        forwarder = await startForwarder({ port: 0, rootGraceMs: 0, batchDelayMs: 0 });
      } catch (error) {
        return { accepted: false, record: null, lines: [(error as Error).message], debugLines: 0 };
      }
      const { traceId, spans } = llmTraceSpans('walk question?', 'walk answer.');
      const token = env.AQM_FORWARDER_TOKENS;
      const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
      const answer = await postOtlp(
        forwarder.url,
        protoBody(spans),
        headers === undefined ? {} : { headers },
      );
      if (token !== undefined) {
        // The token is required: the same body without it is refused.
        const refused = await postOtlp(forwarder.url, protoBody(spans));
        if (refused.status !== 401) throw new Error(`expected 401 without the token, got ${refused.status}`);
      }
      await waitFor(() => {
        const { pipeline } = forwarder.stats();
        return pipeline.exportedTraces + pipeline.sampledOutTraces + pipeline.droppedTraces.total > 0;
      }, `the forwarder's trace settled (${probe.name})`);
      await forwarder.close();
      const lines = [...capture.at('warn'), ...capture.at('error')];
      return {
        accepted: answer.status === 200 && lines.length === 0,
        record: await recordOf(client, ctx.applicationId, traceId),
        lines,
        debugLines: capture.at('debug').length,
      };
    } finally {
      diag.disable();
    }
  });
}
