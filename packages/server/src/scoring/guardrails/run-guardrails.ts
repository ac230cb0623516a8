import type { GuardrailComponent, GuardrailStage, OnFail, Validator } from '@aqm/wire';
import { findValidatorEntry } from '../../catalog/validators.js';
import { applyOnFail } from './apply-on-fail.js';
import { guardrailValidators } from './registry.js';
import type { GuardrailValidator } from './types.js';

/** The outcome of running a stage's validators on a text. */
export interface GuardrailRun {
  stage: GuardrailStage;
  /** `error` when any validator failed (even if `mask` or `filter` repaired the content). */
  passStatus: 'success' | 'error';
  /** The content as every `on_fail` action would leave it; `''` when a `fail` validator would block it. */
  finalContent: string;
  /** One result per validator that ran, in configuration order. */
  components: GuardrailComponent[];
  /** The catalog categories of the failed validators, each once, in order. */
  categories: string[];
  /** Total time of the run in milliseconds, rounded to 3 decimals. */
  latencyMs: number;
}

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

// The service scores traces after the model call: it records what an action would have done to the
// content, it never changed what the app sent or answered. The messages say so.
const CONSEQUENCE: Record<OnFail, string> = {
  mask: 'the findings would be masked',
  filter: 'the findings would be removed',
  fail: 'the content would be blocked',
};

/** {@link runGuardrails} with a given validator map (tests pass their own). */
export function runGuardrailsWith(
  implementations: ReadonlyMap<string, GuardrailValidator>,
  stage: GuardrailStage,
  text: string,
  validators: readonly Validator[],
): GuardrailRun {
  const runStarted = performance.now();
  let content = text;
  let blocked = false;
  const components: GuardrailComponent[] = [];
  const categories: string[] = [];
  for (const validator of validators) {
    const implementation = implementations.get(validator.type);
    const entry = findValidatorEntry(validator.type);
    if (!implementation || !entry) continue;
    const started = performance.now();
    const detection = implementation.detect(content, validator.config);
    let message: string | undefined;
    if (detection.failed) {
      message = `${detection.summary}; ${blocked ? 'the content would already be blocked' : CONSEQUENCE[validator.on_fail]}`;
      if (!blocked) ({ content, blocked } = applyOnFail(content, detection.findings, validator.on_fail));
      if (!categories.includes(entry.category)) categories.push(entry.category);
    }
    components.push({
      type: validator.type,
      category: entry.category,
      passed: !detection.failed,
      score: detection.score,
      onFail: validator.on_fail,
      ...(message === undefined ? {} : { message }),
      latencyMs: roundMs(performance.now() - started),
    });
  }
  return {
    stage,
    passStatus: components.every((component) => component.passed) ? 'success' : 'error',
    finalContent: blocked ? '' : content,
    components,
    categories,
    latencyMs: roundMs(performance.now() - runStarted),
  };
}

/**
 * Runs validators in configuration order on a text. Each sees the content as the previous
 * `mask`/`filter` actions left it; after a `fail`, later validators still run (and report)
 * but the final content stays `''`. Validator types not in the catalog are skipped
 * (`checkValidators` keeps them out of stored configurations).
 * @example
 * ```ts
 * const run = runGuardrails('output', 'Mail me at ann@example.com', [{ type: 'pii', on_fail: 'mask' }]);
 * run.finalContent; // 'Mail me at [EMAIL]'
 * run.passStatus;   // 'error'
 * run.categories;   // ['pii']
 * ```
 */
export function runGuardrails(stage: GuardrailStage, text: string, validators: Validator[]): GuardrailRun {
  return runGuardrailsWith(guardrailValidators, stage, text, validators);
}
