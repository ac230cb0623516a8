import type {
  Application,
  EvalMetric,
  EvaluationResult,
  EvaluationTrace,
  GuardrailComponent,
  GuardrailEvaluationSummary,
  GuardrailsConfig,
  MonitoringConfig,
  Span,
  ValidatorCatalogEntry,
} from '@aqm/wire';

// Valid examples of every shape, built fresh on each call so a test can mutate its copy.

export const APP_ID = '3f2b8c1e-4a5d-4e6f-9a7b-1c2d3e4f5a6b';
export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const SPAN_ID = '00f067aa0ba902b7';

export function application(): Application {
  return {
    id: APP_ID,
    name: 'support-bot',
    description: 'Answers support questions',
    createdAt: '2026-01-31T12:00:00.000Z',
    updatedAt: '2026-01-31T12:00:00.000Z',
  };
}

export function monitoringConfig(): MonitoringConfig {
  return {
    metrics: [{ type: 'answer_relevancy', threshold: 0.7 }],
    plugins: { harmful: ['harmful:hate'], pii: ['pii:direct'] },
    securityPurpose: 'customer support',
    securityConfig: { purpose: 'customer support', userTypes: 'customers' },
  };
}

export function guardrailsConfig(): GuardrailsConfig {
  return {
    enable_guard_rails: true,
    input_validators: [{ type: 'prompt-injection', on_fail: 'fail', config: { threshold: 0.8 } }],
    output_validators: [{ type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS'] } }],
  };
}

export function span(): Span {
  return {
    spanId: SPAN_ID,
    name: 'chat gpt-4o',
    kind: 'client',
    startTime: '2026-01-31T12:00:00.000Z',
    endTime: '2026-01-31T12:00:01.000Z',
    status: { code: 'ok' },
    attributes: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 12 },
    events: [
      { name: 'gen_ai.content.prompt', time: '2026-01-31T12:00:00.100Z', attributes: { role: 'user' } },
    ],
  };
}

export function evaluationTrace(): EvaluationTrace {
  return {
    traceId: TRACE_ID,
    prompt: 'What is the refund policy?',
    response: 'Refunds are accepted within 30 days.',
    startTime: '2026-01-31T12:00:00.000Z',
    endTime: '2026-01-31T12:00:02.000Z',
    status: 'success',
    model: 'gpt-4o',
    provider: 'openai',
    usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
    context: ['Refund policy: 30 days.'],
    sessionId: 'session-1',
    userId: 'user-1',
    environment: 'production',
    appVersion: '1.2.3',
    metadata: { tenant: 'acme', retries: 0, beta: true },
    spans: [span()],
  };
}

export function evaluationResult(): EvaluationResult {
  return {
    id: 'eval-1',
    traceId: TRACE_ID,
    metric: 'answer_relevancy',
    score: 0.9,
    passed: true,
    threshold: 0.7,
    explanation: 'The answer addresses the question.',
    createdAt: '2026-01-31T12:00:05.000Z',
  };
}

export function guardrailComponent(): GuardrailComponent {
  return {
    type: 'pii',
    category: 'pii',
    passed: false,
    score: 0.95,
    onFail: 'mask',
    message: 'EMAIL_ADDRESS found',
    latencyMs: 4.2,
  };
}

export function guardrailEvaluationSummary(): GuardrailEvaluationSummary {
  return {
    id: 'gr-1',
    traceId: TRACE_ID,
    guardrail_stage: 'output',
    passStatus: 'error',
    categories: ['pii'],
    final_content: 'Write to [EMAIL_ADDRESS]',
    latency: 4.2,
    created_at: '2026-01-31T12:00:03.000Z',
  };
}

export function validatorCatalogEntry(): ValidatorCatalogEntry {
  return {
    type: 'pii',
    name: 'PII',
    description: 'Detects personal data',
    category: 'pii',
    stages: ['input', 'output'],
    configTemplate: {
      threshold: { type: 'number', description: 'Minimum confidence', min: 0, max: 1, default: 0.5 },
      entities: {
        type: 'string[]',
        description: 'Entities to detect',
        enum: ['EMAIL_ADDRESS', 'PHONE_NUMBER'],
      },
    },
  };
}

export function evalMetric(): EvalMetric {
  return {
    id: 'm-1',
    name: 'answer_relevancy',
    label: 'Answer relevancy',
    description: 'How well the response answers the prompt',
    valueType: 'number',
    mandatory: 0,
    additionalFields: [{ name: 'threshold', type: 'number', label: 'Threshold', mandatory: false }],
  };
}
