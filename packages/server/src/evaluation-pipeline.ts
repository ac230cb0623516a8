import { randomUUID } from 'node:crypto';
import type { EvaluationResult, EvaluationTrace, GuardrailEvaluation, GuardrailStage } from '@aqm/wire';
import type { FairTurns } from './fair-turns.js';
import { runGuardrails, scoreTrace } from './scoring/index.js';
import type { ApplicationRecord } from './store/applications-repository.js';
import type { Store } from './store/store.js';

/** A trace ready to store: its evaluation results and guardrail records. */
export interface ProcessedTrace {
  trace: EvaluationTrace;
  results: EvaluationResult[];
  records: GuardrailEvaluation[];
}

/** What scoring needs of an application: its metrics and guardrails. */
export type ScoringConfig = Pick<ApplicationRecord, 'monitoring' | 'guardrails'>;

/** One submission's scoring work, as sent to a scoring worker (structured-clonable). */
export interface ScoringJob {
  config: { metrics: ScoringConfig['monitoring']['metrics']; guardrails: ScoringConfig['guardrails'] };
  traces: EvaluationTrace[];
  now: string;
}

/**
 * Scores each trace of a job: evaluation results from the metrics, guardrail records when
 * guardrails are enabled (input validators on the prompt, output validators on the response;
 * a stage without validators writes no record). Pure CPU work, run by a scoring worker.
 */
export function processTraces(job: ScoringJob): ProcessedTrace[] {
  return job.traces.map((trace) => processTrace(job.config, trace, job.now));
}

/** The distinct traces of a submission, the last of a repeated traceId winning, in first-seen order of ids. */
export function latestTraces(traces: readonly EvaluationTrace[]): EvaluationTrace[] {
  const latest = new Map<string, EvaluationTrace>();
  for (const trace of traces) latest.set(trace.traceId, trace);
  return [...latest.values()];
}

/** Traces written per transaction and turn: well under a millisecond of writes (about 40 µs a trace). */
export const STORE_CHUNK_TRACES = 10;

/**
 * Stores scored traces, a chunk of {@link STORE_CHUNK_TRACES} per transaction in the project's
 * turn, so 100 traces of one project do not hold the event loop from the others for their whole
 * write. A trace is stored whole with its results and records (one chunk); a submission that
 * fails half-way is not answered 200, and its retry replaces what was stored (by traceId).
 * A traceId already stored is replaced with its old results and records. Resolves with the
 * traceIds in order.
 */
export async function storeProcessed(
  store: Store,
  turns: FairTurns,
  project: string,
  applicationId: string,
  processed: readonly ProcessedTrace[],
): Promise<string[]> {
  for (let start = 0; start < processed.length; start += STORE_CHUNK_TRACES) {
    const chunk = processed.slice(start, start + STORE_CHUNK_TRACES);
    await turns.run(project, () =>
      store.db.transaction(() => {
        for (const { trace, results, records } of chunk) {
          store.traces.replace(applicationId, trace);
          for (const result of results) store.evaluationResults.insert(applicationId, result);
          for (const record of records) store.guardrailRecords.insert(applicationId, record);
        }
      }),
    );
  }
  return processed.map(({ trace }) => trace.traceId);
}

function processTrace(config: ScoringJob['config'], trace: EvaluationTrace, now: string): ProcessedTrace {
  const scorable = {
    prompt: trace.prompt,
    response: trace.response,
    startTime: trace.startTime,
    endTime: trace.endTime,
    status: trace.status,
    ...(trace.context === undefined ? {} : { context: trace.context }),
    ...(trace.usage === undefined ? {} : { usage: trace.usage }),
  };
  const results = scoreTrace(scorable, config.metrics).map((score): EvaluationResult => {
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
  const { enable_guard_rails, input_validators, output_validators } = config.guardrails;
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
