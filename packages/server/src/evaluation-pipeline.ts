import { randomUUID } from 'node:crypto';
import type { EvaluationResult, EvaluationTrace, GuardrailEvaluation, GuardrailStage } from '@aqm/wire';
import { runGuardrails, scoreTrace } from './scoring/index.js';
import type { ApplicationRecord } from './store/applications-repository.js';
import type { Store } from './store/store.js';

/** A trace ready to store: its evaluation results and guardrail records. */
interface ProcessedTrace {
  trace: EvaluationTrace;
  results: EvaluationResult[];
  records: GuardrailEvaluation[];
}

/**
 * Scores submitted traces with the application's metrics, runs its guardrails when enabled
 * (input validators on the prompt, output validators on the response; a stage without
 * validators writes no record), and stores everything in one transaction. A traceId already
 * stored, or repeated in the batch, is replaced (the last one wins) with its old results and
 * records. Returns the distinct traceIds in first-seen order.
 */
export function submitTraces(
  store: Store,
  app: ApplicationRecord,
  traces: readonly EvaluationTrace[],
  now: string,
): string[] {
  const latest = new Map<string, EvaluationTrace>();
  for (const trace of traces) latest.set(trace.traceId, trace);
  const processed = [...latest.values()].map((trace) => processTrace(app, trace, now));
  store.db.transaction(() => {
    for (const { trace, results, records } of processed) {
      store.traces.replace(app.id, trace);
      for (const result of results) store.evaluationResults.insert(app.id, result);
      for (const record of records) store.guardrailRecords.insert(app.id, record);
    }
  });
  return [...latest.keys()];
}

function processTrace(app: ApplicationRecord, trace: EvaluationTrace, now: string): ProcessedTrace {
  const scorable = {
    prompt: trace.prompt,
    response: trace.response,
    startTime: trace.startTime,
    endTime: trace.endTime,
    status: trace.status,
    ...(trace.context === undefined ? {} : { context: trace.context }),
    ...(trace.usage === undefined ? {} : { usage: trace.usage }),
  };
  const results = scoreTrace(scorable, app.monitoring.metrics).map((score): EvaluationResult => {
    const result: EvaluationResult = {
      id: randomUUID(),
      traceId: trace.traceId,
      metric: score.metric,
      score: score.score,
      passed: score.passed,
      explanation: score.explanation,
      createdAt: now,
    };
    if (score.threshold !== undefined) result.threshold = score.threshold;
    return result;
  });
  const { enable_guard_rails, input_validators, output_validators } = app.guardrails;
  const records: GuardrailEvaluation[] = [];
  if (enable_guard_rails) {
    if (input_validators.length > 0) records.push(guardrailRecord(trace, 'input', input_validators, now));
    if (output_validators.length > 0) records.push(guardrailRecord(trace, 'output', output_validators, now));
  }
  return { trace, results, records };
}

function guardrailRecord(
  trace: EvaluationTrace,
  stage: GuardrailStage,
  validators: ApplicationRecord['guardrails']['input_validators'],
  now: string,
): GuardrailEvaluation {
  const run = runGuardrails(stage, stage === 'input' ? trace.prompt : trace.response, validators);
  return {
    id: randomUUID(),
    traceId: trace.traceId,
    guardrail_stage: stage,
    passStatus: run.passStatus,
    categories: run.categories,
    final_content: run.finalContent,
    latency: run.latencyMs,
    created_at: now,
    prompt: trace.prompt,
    response: trace.response,
    app_version: trace.appVersion ?? '',
    environment: trace.environment ?? '',
    cost: 0,
    allComponents: run.components,
  };
}
