/**
 * `@aqm/forwarder`: an OTLP/HTTP receiver that sends the LLM traces of apps in any language (and of
 * OpenTelemetry Collectors) to the AQM service, through the same pipeline as `@aqm/otel`.
 * @packageDocumentation
 */
export type { ForwarderOptions } from './forwarder-options.js';
export type { ForwarderStats } from './forwarder-stats.js';
export { type RunningForwarder, startForwarder } from './start-forwarder.js';
