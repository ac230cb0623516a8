import { type DiagLogger, diag } from '@opentelemetry/api';

/**
 * The package's logger. Everything that goes wrong inside the middleware is reported here, through
 * OpenTelemetry's `diag`, instead of being thrown into the app: an app sees our messages wherever
 * it routes OpenTelemetry's own (`diag.setLogger(...)`). The component logger looks the global
 * logger up at each call, so a logger set after this module loaded is honoured.
 */
export const expressDiag: DiagLogger = diag.createComponentLogger({ namespace: '@aqm/express' });
