import type { AdditionalField, EvalMetric } from '@aqm/wire';

/** The JSON type of a metric option, as named in the catalog's `additionalFields[].type`. */
export type MetricOptionType = 'number' | 'string' | 'boolean';

/**
 * One extra key a metric accepts: the wire `additionalFields` entry plus the rules the service
 * checks and the value an evaluator uses when the key is omitted.
 */
export interface MetricOption {
  name: string;
  type: MetricOptionType;
  label: string;
  mandatory: boolean;
  /** Inclusive bounds of a `number` option. */
  min?: number;
  max?: number;
  /** A `number` option that must be a whole number. */
  integer?: boolean;
  /** Value used when the option is omitted. */
  default: number | string | boolean;
}

/** A metric of the local service: its catalog entry and the options its evaluator reads. */
export interface MetricDefinition {
  id: string;
  name: string;
  label: string;
  description: string;
  options: MetricOption[];
}

/** Every score is in [0, 1], so a pass threshold is too. */
function thresholdOption(defaultThreshold: number): MetricOption {
  return {
    name: 'threshold',
    type: 'number',
    label: `Pass threshold, 0 to 1 (default ${defaultThreshold})`,
    mandatory: false,
    min: 0,
    max: 1,
    default: defaultThreshold,
  };
}

/**
 * The metrics the local service can score, in catalog order. Defaults are documented in
 * `src/scoring/README-section.md`; each has an evaluator in `src/scoring/metrics`.
 */
export const metricDefinitions: MetricDefinition[] = [
  {
    id: 'answer-relevance',
    name: 'answer_relevance',
    label: 'Answer relevance',
    description: 'Share of the content terms of the prompt that the response also uses (stopwords removed).',
    options: [thresholdOption(0.5)],
  },
  {
    id: 'faithfulness',
    name: 'faithfulness',
    label: 'Faithfulness',
    description:
      'Share of the response sentences whose content terms are mostly found in the retrieved context.',
    options: [
      thresholdOption(0.7),
      {
        name: 'requireContext',
        type: 'boolean',
        label: 'Score 0 when the trace has no context (default false: score 1)',
        mandatory: false,
        default: false,
      },
    ],
  },
  {
    id: 'pii-leakage',
    name: 'pii_leakage',
    label: 'PII leakage',
    description:
      'Absence of personal data in the response: e-mail addresses, phone numbers, card numbers, IBANs, IP addresses, US SSNs.',
    options: [thresholdOption(1)],
  },
  {
    id: 'prompt-injection',
    name: 'prompt_injection',
    label: 'Prompt injection',
    description: 'Absence of known prompt-injection and jailbreak phrases in the prompt.',
    options: [thresholdOption(0.5)],
  },
  {
    id: 'toxicity',
    name: 'toxicity',
    label: 'Toxicity',
    description: 'Absence of insults, profanity and threats in the response, by a weighted word list.',
    options: [thresholdOption(0.5)],
  },
  {
    id: 'latency',
    name: 'latency',
    label: 'Latency',
    description: 'Whether the trace (endTime minus startTime) finished within the latency budget.',
    options: [
      thresholdOption(1),
      {
        name: 'maxLatencyMs',
        type: 'number',
        label: 'Latency budget in milliseconds (default 5000)',
        mandatory: false,
        min: 1,
        max: 3_600_000,
        default: 5000,
      },
    ],
  },
  {
    id: 'conciseness',
    name: 'conciseness',
    label: 'Conciseness',
    description: 'Whether the response stays within a word budget.',
    options: [
      thresholdOption(1),
      {
        name: 'maxWords',
        type: 'number',
        label: 'Word budget of the response (default 300)',
        mandatory: false,
        min: 1,
        max: 100_000,
        integer: true,
        default: 300,
      },
    ],
  },
  {
    id: 'success-rate',
    name: 'success_rate',
    label: 'Success rate',
    description:
      'Whether the trace completed with status success (1) or error (0); averaged, the success rate.',
    options: [thresholdOption(1)],
  },
  {
    id: 'token-budget',
    name: 'token_budget',
    label: 'Token budget',
    description: 'Whether the total tokens of the trace stay within a budget.',
    options: [
      thresholdOption(1),
      {
        name: 'maxTokens',
        type: 'number',
        label: 'Token budget of the trace (default 4000)',
        mandatory: false,
        min: 1,
        max: 10_000_000,
        integer: true,
        default: 4000,
      },
    ],
  },
];

function toAdditionalField(option: MetricOption): AdditionalField {
  return { name: option.name, type: option.type, label: option.label, mandatory: option.mandatory };
}

/** Builds the wire catalog entries (`GET /metrics/eval`) of metric definitions. */
export function toEvalMetrics(definitions: readonly MetricDefinition[]): EvalMetric[] {
  return definitions.map((definition) => ({
    id: definition.id,
    name: definition.name,
    label: definition.label,
    description: definition.description,
    valueType: 'number',
    mandatory: 0,
    additionalFields: definition.options.map(toAdditionalField),
  }));
}

/** `GET /metrics/eval` data: the metrics usable as monitoring `metrics[].type`. */
export const evalMetricCatalog: EvalMetric[] = toEvalMetrics(metricDefinitions);

/** The definition of the metric named `name`, if the catalog has one. */
export function findMetricDefinition(name: string): MetricDefinition | undefined {
  return metricDefinitions.find((definition) => definition.name === name);
}
