import { type DiagLogger, diag } from '@opentelemetry/api';

/**
 * The package's internal logger. It goes through OpenTelemetry's `diag`, so an app sees our
 * messages wherever it already routes OpenTelemetry's own (`diag.setLogger(...)`), and never on
 * stdout unless it asked for that. The component logger looks the global logger up at each call,
 * so a logger set after this module loaded is honoured.
 */
export const aqmDiag: DiagLogger = diag.createComponentLogger({ namespace: '@aqm/otel' });
