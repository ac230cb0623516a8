import type { Metric, Usage } from '@aqm/wire';

/** What the evaluators read of a submitted trace. */
export interface ScorableTrace {
  prompt: string;
  response: string;
  /** Retrieved documents the response should be grounded in. */
  context?: string[];
  /** ISO 8601 timestamps; only their difference is used. */
  startTime: string;
  endTime: string;
  status: 'success' | 'error';
  usage?: Usage;
}

/** One metric's score of a trace. */
export interface MetricScore {
  /** The metric `name` (the monitoring `metrics[].type`). */
  metric: string;
  /** In [0, 1], higher is better, rounded to 4 decimals. */
  score: number;
  /** `score >= threshold`. */
  passed: boolean;
  /** The threshold used: the metric's `threshold` option or the catalog default. */
  threshold?: number;
  /** One sentence with the figures behind the score. */
  explanation: string;
}

/** A deterministic local evaluator of one catalog metric. */
export interface MetricEvaluator {
  /** The catalog metric `name` it scores. */
  metric: string;
  /** Scores a trace with the options of the configured metric (no I/O, no randomness, no clock). */
  evaluate(trace: ScorableTrace, metric: Metric): MetricScore;
}
