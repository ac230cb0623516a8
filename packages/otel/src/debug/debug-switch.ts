import { printableLine } from '@aqm/wire/light';
import type { DiagLogger } from '@opentelemetry/api';
import { aqmDiag } from '../diag.js';
import { debugSource } from './debug-env.js';

export type { DebugSource } from './debug-env.js';

/** Where one debug line goes; its text is already one printable line. */
export type DebugSink = (line: string) => void;

function writeStderr(line: string): void {
  try {
    process.stderr.write(`@aqm/otel debug: ${printableLine(line)}\n`);
  } catch {
    // A closed stderr must not take the app down.
  }
}

/**
 * Where the debug lines of a pipeline go, or `undefined` when debug is off (callers test that
 * before building a line, so debug costs nothing when off).
 *
 * - a logger of the caller's own (aqm-forwarder's): its `debug`; the caller set its level;
 * - `AQM_DEBUG`: straight to stderr, whatever `diag` logger the app has (none needed), and only
 *   there, so a NodeSDK that also logs `OTEL_LOG_LEVEL=debug` does not print the line twice;
 * - `OTEL_LOG_LEVEL=debug` alone: through `diag`, where OpenTelemetry's own messages go (the
 *   NodeSDK's console logger), or stderr when no `diag` logger is set.
 */
export function debugSink(
  env: Record<string, string | undefined>,
  logger: DiagLogger = aqmDiag,
): DebugSink | undefined {
  const source = debugSource(env);
  if (source === undefined) return undefined;
  if (logger !== aqmDiag) return (line) => logger.debug(line);
  if (source === 'AQM_DEBUG') return writeStderr;
  return (line) => aqmDiag.debug(line);
}
