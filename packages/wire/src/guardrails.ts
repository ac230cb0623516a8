import { z } from 'zod';
import { expects, isoDateTimeSchema, pageQueryShape, refineRange } from './common.js';
import { MAX_SEARCH_CHARS, MAX_SHORT_TEXT, MAX_VALIDATORS_PER_STAGE } from './limits.js';

/**
 * What a failed validator's action is: `fail` blocks the content, `mask` masks findings, `filter` removes them.
 * The service records the outcome after the model call, so records say what the action would have done.
 */
export const ON_FAIL_ACTIONS = ['fail', 'mask', 'filter'] as const;
/** A validator's `on_fail` action: `fail`, `mask` or `filter`. */
export type OnFail = (typeof ON_FAIL_ACTIONS)[number];
/** Where validators run: on the `input` (the prompt) or the `output` (the response). */
export const GUARDRAIL_STAGES = ['input', 'output'] as const;
/** A guardrail stage: `input` or `output`. */
export type GuardrailStage = (typeof GUARDRAIL_STAGES)[number];
/** Outcomes of a guardrail evaluation record: `success`, or `error` when any validator failed. */
export const PASS_STATUSES = ['success', 'error'] as const;
/** A guardrail evaluation record's `passStatus`: `success` (every validator passed) or `error` (one failed). */
export type PassStatus = (typeof PASS_STATUSES)[number];

/** A guardrail validator of the configuration. */
export const validatorSchema = z
  .object({
    type: z
      .string({ error: expects('must be a validator type string') })
      .min(1, { message: 'must not be empty' })
      .max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` }),
    on_fail: z.enum(ON_FAIL_ACTIONS, { error: expects(`must be one of ${ON_FAIL_ACTIONS.join(', ')}`) }),
    config: z.record(z.string(), z.unknown(), { message: 'must be an object' }).optional(),
  })
  .strict();
/** A guardrail validator of the configuration: `type`, `on_fail` and an optional `config`. */
export type Validator = z.infer<typeof validatorSchema>;

/** The validators of one stage in an update: at most {@link MAX_VALIDATORS_PER_STAGE}. */
const validatorListSchema = z
  .array(validatorSchema, { message: 'must be an array of validator objects' })
  .max(MAX_VALIDATORS_PER_STAGE, { message: `must hold at most ${MAX_VALIDATORS_PER_STAGE} validators` });

/** The guardrails configuration. */
export const guardrailsConfigSchema = z.object({
  enable_guard_rails: z.boolean(),
  input_validators: z.array(validatorSchema),
  output_validators: z.array(validatorSchema),
});
/** `GET /applications/{id}/guardrails` data: the switch and the input and output validators. */
export type GuardrailsConfig = z.infer<typeof guardrailsConfigSchema>;

/** `PUT /applications/{id}/guardrails` body: at least one field; arrays replace the stored ones. */
export const updateGuardrailsBodySchema = z
  .object({
    enable_guard_rails: z.boolean({ message: 'must be a boolean' }).optional(),
    input_validators: validatorListSchema.optional(),
    output_validators: validatorListSchema.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'at least one of enable_guard_rails, input_validators, output_validators must be provided',
  });
/** `PUT /applications/{id}/guardrails` body as sent: at least one field; arrays replace the stored ones. */
export type UpdateGuardrailsBody = z.input<typeof updateGuardrailsBodySchema>;

/** One setting of a validator's `configTemplate`. */
export const configFieldTemplateSchema = z.object({
  type: z.enum(['number', 'string', 'boolean', 'string[]']),
  description: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** For `string` and `string[]`: the allowed values. */
  enum: z.array(z.string()).optional(),
  default: z.unknown().optional(),
});
/** One setting of a validator's `configTemplate`: type, description, bounds, allowed values and default. */
export type ConfigFieldTemplate = z.infer<typeof configFieldTemplateSchema>;

/** An entry of `GET /guardrails/validators` (contract decision). */
export const validatorCatalogEntrySchema = z.object({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  stages: z.array(z.enum(GUARDRAIL_STAGES)),
  configTemplate: z.record(z.string(), configFieldTemplateSchema),
});
/** An entry of the validator catalog, `GET /guardrails/validators`. */
export type ValidatorCatalogEntry = z.infer<typeof validatorCatalogEntrySchema>;

/** An item of a guardrail record's `allComponents` (contract decision). */
export const guardrailComponentSchema = z.object({
  type: z.string(),
  category: z.string(),
  passed: z.boolean(),
  score: z.number().optional(),
  onFail: z.enum(ON_FAIL_ACTIONS),
  message: z.string().optional(),
  latencyMs: z.number(),
});
/** One validator's result in a guardrail record's `allComponents`. */
export type GuardrailComponent = z.infer<typeof guardrailComponentSchema>;

/** An item of `results` of the guardrail evaluation list (contract decision). */
export const guardrailEvaluationSummarySchema = z.object({
  id: z.string(),
  traceId: z.string(),
  guardrail_stage: z.enum(GUARDRAIL_STAGES),
  passStatus: z.enum(PASS_STATUSES),
  categories: z.array(z.string()),
  final_content: z.string(),
  latency: z.number(),
  created_at: z.string(),
});
/** An item of `results` of `GET /applications/{id}/guardrails/evaluations`. */
export type GuardrailEvaluationSummary = z.infer<typeof guardrailEvaluationSummarySchema>;

/** The single read of a guardrail evaluation record (spec fields plus `traceId`, `passStatus`, `categories`). */
export const guardrailEvaluationSchema = guardrailEvaluationSummarySchema.extend({
  prompt: z.string(),
  response: z.string(),
  app_version: z.string(),
  environment: z.string(),
  cost: z.number(),
  allComponents: z.array(guardrailComponentSchema),
});
/** `GET /applications/{id}/guardrails/evaluations/{evaluationId}` data: a whole guardrail record. */
export type GuardrailEvaluation = z.infer<typeof guardrailEvaluationSchema>;

/** `GET /applications/{id}/guardrails/evaluations` query. */
export const listGuardrailEvaluationsQuerySchema = z
  .object({
    start: isoDateTimeSchema,
    end: isoDateTimeSchema,
    ...pageQueryShape,
    passStatus: z.enum(PASS_STATUSES, { message: `must be one of ${PASS_STATUSES.join(', ')}` }).optional(),
    stage: z.enum(GUARDRAIL_STAGES, { message: `must be one of ${GUARDRAIL_STAGES.join(', ')}` }).optional(),
    category: z
      .string()
      .min(1, { message: 'must not be empty' })
      .max(MAX_SHORT_TEXT, { message: `must be at most ${MAX_SHORT_TEXT} characters` })
      .optional(),
    search: z
      .string()
      .max(MAX_SEARCH_CHARS, { message: `must be at most ${MAX_SEARCH_CHARS} characters` })
      .optional(),
  })
  .superRefine(refineRange);
/** `GET /applications/{id}/guardrails/evaluations` query as sent: `start`, `end`, paging and filters. */
export type ListGuardrailEvaluationsQuery = z.input<typeof listGuardrailEvaluationsQuerySchema>;

/** `data` of the guardrail evaluation list. */
export const guardrailEvaluationPageSchema = z.object({
  results: z.array(guardrailEvaluationSummarySchema),
  count: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
/** `GET /applications/{id}/guardrails/evaluations` data: `{ results, count, page, limit }`. */
export type GuardrailEvaluationPage = z.infer<typeof guardrailEvaluationPageSchema>;
