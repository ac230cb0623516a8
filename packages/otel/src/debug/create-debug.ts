import type { DiagLogger } from '@opentelemetry/api';
import { type DebugSink, debugSink } from './debug-switch.js';
import { PipelineDebug } from './pipeline-debug.js';

/**
 * The debug lines of a pipeline, or `undefined` when debug is off: `sink` when the owner chose
 * one (`false`: off), else from the environment (`AQM_DEBUG`, `OTEL_LOG_LEVEL`).
 */
export function createPipelineDebug(
  sink: DebugSink | false | undefined,
  env: Record<string, string | undefined>,
  logger: DiagLogger,
): PipelineDebug | undefined {
  const chosen = sink === undefined ? debugSink(env, logger) : sink || undefined;
  return chosen === undefined ? undefined : new PipelineDebug(chosen);
}
