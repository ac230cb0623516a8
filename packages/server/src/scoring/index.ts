/**
 * The deterministic local evaluators of the service: metric scoring of traces and guardrail
 * validation of texts. No network, no randomness, no clock (except latencies measured).
 * @packageDocumentation
 */
export { type GuardrailRun, runGuardrails } from './guardrails/run-guardrails.js';
export { scoreTrace } from './score-trace.js';
export type { MetricScore, ScorableTrace } from './types.js';
