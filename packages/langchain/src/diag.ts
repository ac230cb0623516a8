import { type DiagLogger, diag } from '@opentelemetry/api';

/**
 * The package's logger. It goes through OpenTelemetry's `diag`, so an app sees our messages
 * wherever it already routes OpenTelemetry's own, and never on stdout unless it asked for that.
 */
export const handlerDiag: DiagLogger = diag.createComponentLogger({ namespace: '@aqm/langchain' });
