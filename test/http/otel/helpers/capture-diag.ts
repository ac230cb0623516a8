import { DiagLogLevel, diag } from '@opentelemetry/api';
import { CaptureLogger } from '../../../../packages/otel/test/export-helpers/capture-logger.js';

// The unit tests' capturing `DiagLogger`, shared: here it is also installed as the global diag logger.
export { CaptureLogger as DiagCapture } from '../../../../packages/otel/test/export-helpers/capture-logger.js';

/** Routes OpenTelemetry's `diag` (where `@aqm/otel` reports) into a fresh capture; `diag.disable()` undoes it. */
export function captureDiag(): CaptureLogger {
  const capture = new CaptureLogger();
  diag.setLogger(capture, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
  return capture;
}
