import { randomBytes, randomUUID } from 'node:crypto';
import type { EvaluationTrace, GuardrailEvaluation } from '@aqm/wire';
import type { ApplicationRecord } from '../src/store/applications-repository.js';

/** A random 32-hex trace id. */
export function traceId(): string {
  return randomBytes(16).toString('hex');
}

/** An application record of `projectId` with an empty configuration. */
export function applicationRecord(projectId: string, name: string, createdAt: string): ApplicationRecord {
  return {
    id: randomUUID(),
    projectId,
    name,
    description: `${name} description`,
    monitoring: { metrics: [], plugins: {}, securityPurpose: '', securityConfig: {} },
    guardrails: { enable_guard_rails: false, input_validators: [], output_validators: [] },
    createdAt,
    updatedAt: createdAt,
  };
}

/** A trace starting at `startTime` and lasting `durationMs`. */
export function trace(
  startTime: string,
  durationMs: number,
  overrides: Partial<EvaluationTrace> = {},
): EvaluationTrace {
  return {
    traceId: traceId(),
    prompt: 'What is the capital of France?',
    response: 'Paris is the capital of France.',
    startTime,
    endTime: new Date(Date.parse(startTime) + durationMs).toISOString(),
    status: 'success',
    ...overrides,
  };
}

/** A guardrail record of a stored trace. */
export function guardrailRecord(
  traceIdValue: string,
  createdAt: string,
  overrides: Partial<GuardrailEvaluation> = {},
): GuardrailEvaluation {
  return {
    id: randomUUID(),
    traceId: traceIdValue,
    guardrail_stage: 'input',
    passStatus: 'success',
    categories: [],
    final_content: 'hello',
    latency: 1.5,
    created_at: createdAt,
    prompt: 'hello',
    response: 'world',
    app_version: '',
    environment: '',
    cost: 0,
    allComponents: [],
    ...overrides,
  };
}
