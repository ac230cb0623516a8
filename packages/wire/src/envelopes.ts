import { z } from 'zod';
import { paginationSchema } from './common.js';

/** One item of a validation error's `errors[]`: a JSON path and why it failed. */
export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
/** One item of a validation error's `errors[]`: the JSON `path` and the `message`. */
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Error envelope of every non-validation failure (404, 409, 413, 429, 5xx). */
export const errorEnvelopeSchema = z.object({ success: z.literal(false), message: z.string() });
/** Body of every non-validation failure (404, 409, 413, 429, 5xx): `{ success: false, message }`. */
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Validation error envelope (400). */
export const validationErrorEnvelopeSchema = errorEnvelopeSchema.extend({
  errors: z.array(fieldErrorSchema),
});
/** Body of a 400: `{ success: false, message, errors[] }`. */
export type ValidationErrorEnvelope = z.infer<typeof validationErrorEnvelopeSchema>;

/** 401 body: a message and, as the spec shows it, no `success` field. */
export const authErrorBodySchema = z.object({ message: z.string() }).strict();
/** Body of a 401: `{ message }`, without a `success` field. */
export type AuthErrorBody = z.infer<typeof authErrorBodySchema>;

/** `{ success: true, data }` */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** `{ success: true, data: T[], pagination }` */
export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: paginationSchema });
}

/** A page of a list as the client returns it: the items and the pagination object. */
export interface Page<T> {
  data: T[];
  pagination: z.infer<typeof paginationSchema>;
}
