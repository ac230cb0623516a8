import { z } from 'zod';
import { expects, pageQueryShape } from './common.js';
import { guardrailsConfigSchema } from './guardrails.js';
import { MAX_SEARCH_CHARS } from './limits.js';
import { monitoringConfigSchema } from './monitoring.js';

/** An application (spec: Resources › Application). */
export const applicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** An application: id, name, description and UTC timestamps (spec: Resources › Application). */
export type Application = z.infer<typeof applicationSchema>;

/** The single-application read: the application plus its monitoring (with `logLocation`) and guardrails. */
export const applicationDetailSchema = applicationSchema.extend({
  // The spec says the read "may also contain" it: this service always sends it, the real one may not.
  monitoring: monitoringConfigSchema.extend({ logLocation: z.string().optional() }),
  guardrails: guardrailsConfigSchema,
});
/** `GET /applications/{id}` data: the application with its monitoring (plus `logLocation`) and guardrails. */
export type ApplicationDetail = z.infer<typeof applicationDetailSchema>;

const nameSchema = z
  .string({ error: expects('must be a string') })
  .trim()
  .min(1, { message: 'must be 1 to 100 characters' })
  .max(100, { message: 'must be 1 to 100 characters' });
const descriptionSchema = z
  .string({ message: 'must be a string' })
  .max(1000, { message: 'must be at most 1000 characters' });

/** `GET /applications` query. */
export const listApplicationsQuerySchema = z.object({
  ...pageQueryShape,
  search: z
    .string()
    .max(MAX_SEARCH_CHARS, { message: `must be at most ${MAX_SEARCH_CHARS} characters` })
    .optional(),
});
/** `GET /applications` query as sent: optional `page`, `limit` and name `search`. */
export type ListApplicationsQuery = z.input<typeof listApplicationsQuerySchema>;

/** `POST /applications` body (contract decision). */
export const createApplicationBodySchema = z
  .object({ name: nameSchema, description: descriptionSchema.optional() })
  .strict();
/** `POST /applications` body as sent: a `name` (1-100 characters) and an optional `description`. */
export type CreateApplicationBody = z.input<typeof createApplicationBodySchema>;

/** `PATCH /applications/{id}` body: at least one of `name`, `description`. */
export const updateApplicationBodySchema = z
  .object({ name: nameSchema.optional(), description: descriptionSchema.optional() })
  .strict()
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'at least one of name, description must be provided',
  });
/** `PATCH /applications/{id}` body as sent: `name`, `description` or both. */
export type UpdateApplicationBody = z.input<typeof updateApplicationBodySchema>;

/** `PATCH /applications/{id}` response data. */
export const updatedApplicationSchema = applicationSchema.pick({
  id: true,
  name: true,
  description: true,
  updatedAt: true,
});
/** `PATCH /applications/{id}` data: `id`, `name`, `description` and `updatedAt`. */
export type UpdatedApplication = z.infer<typeof updatedApplicationSchema>;
