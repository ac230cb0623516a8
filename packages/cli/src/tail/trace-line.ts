import type { EvaluationResult, GuardrailEvaluationSummary, TraceSummary } from '@aqm/client';
import type { Palette } from '../render/colors.js';
import { formatLocalTime } from '../render/local-time.js';
import { paintPassStatus, paintScore } from '../render/scores.js';

/** A followed trace with what the service made of it. */
export interface TailedTrace {
  trace: TraceSummary;
  evaluationResults: EvaluationResult[];
  guardrails: GuardrailEvaluationSummary[];
}

/**
 * One line per trace for `traces tail`: local start time, trace id, status, every metric score
 * (✓/✗, coloured on a terminal) and the guardrail outcome of each stage (pass/fail, as recorded
 * after the fact) with failed categories.
 */
export function formatTailLine(item: TailedTrace, palette: Palette): string {
  const { trace } = item;
  const status = trace.status === 'success' ? palette.green(trace.status) : palette.red(trace.status);
  const scores =
    item.evaluationResults.length === 0
      ? palette.dim('no scores')
      : item.evaluationResults.map((r) => `${r.metric} ${paintScore(r.score, r.passed, palette)}`).join('  ');
  const stages = [...item.guardrails]
    .sort((a, b) => a.guardrail_stage.localeCompare(b.guardrail_stage))
    .map((g) => {
      const categories = g.categories.length === 0 ? '' : ` [${g.categories.join(',')}]`;
      return `${g.guardrail_stage} ${paintPassStatus(g.passStatus, palette)}${categories}`;
    });
  const guardrails = stages.length === 0 ? '' : `  | guardrails: ${stages.join(', ')}`;
  return `${formatLocalTime(trace.startTime)}  ${trace.traceId}  ${status}  ${scores}${guardrails}`;
}
