import { z } from 'zod';
import { isoDateTimeSchema, pageQueryShape, refineRange } from './common.js';

/** A metric's score of a trace; also an item of a trace's `evaluationResults` (contract decision). */
export const evaluationResultSchema = z.object({
  id: z.string(),
  traceId: z.string(),
  metric: z.string(),
  score: z.number(),
  passed: z.boolean(),
  threshold: z.number().optional(),
  explanation: z.string().optional(),
  createdAt: z.string(),
});
/** A metric's score of a trace: an item of the evaluations list and of a trace's `evaluationResults`. */
export type EvaluationResult = z.infer<typeof evaluationResultSchema>;

/** `GET /applications/{id}/evaluations` query (contract decision). */
export const listEvaluationsQuerySchema = z
  .object({
    ...pageQueryShape,
    start: isoDateTimeSchema.optional(),
    end: isoDateTimeSchema.optional(),
    traceId: z.string().optional(),
    metric: z.string().optional(),
  })
  .superRefine(refineRange);
/** `GET /applications/{id}/evaluations` query as sent: paging, time range, `traceId` and `metric`. */
export type ListEvaluationsQuery = z.input<typeof listEvaluationsQuerySchema>;
