import { z } from 'zod';

/** Default `limit` of every paginated endpoint (spec: Limits). */
export const DEFAULT_PAGE_SIZE = 20;
/** Maximum `limit` of every paginated endpoint (spec: Limits); larger values answer 400. */
export const MAX_PAGE_SIZE = 100;

/**
 * An error message for a schema that says "is required" when the value is missing and
 * `message` otherwise, so each `errors[]` entry names the reason.
 */
export function expects(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);
}

/** A UUID as used for application ids. */
export const uuidSchema = z.uuid({ message: 'must be a UUID' });

/**
 * An ISO 8601 timestamp. Offsets are accepted and normalised to UTC (`Z`), since the spec
 * says every timestamp is UTC; the normalised form is what travels and is stored.
 */
export const isoDateTimeSchema = z.iso
  .datetime({
    offset: true,
    error: expects('must be an ISO 8601 date-time, for example 2026-01-31T12:00:00Z'),
  })
  .transform((value) => new Date(value).toISOString());

/** `page` query parameter: integer >= 1, default 1. Query strings are coerced. */
export const pageSchema = z.coerce
  .number({ message: 'must be an integer >= 1' })
  .int({ message: 'must be an integer >= 1' })
  .min(1, { message: 'must be an integer >= 1' })
  .default(1);

/** `limit` query parameter: integer 1..100, default 20. */
export const limitSchema = z.coerce
  .number({ message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` })
  .int({ message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` })
  .min(1, { message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` })
  .max(MAX_PAGE_SIZE, { message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` })
  .default(DEFAULT_PAGE_SIZE);

/** The page/limit pair shared by every paginated list. */
export const pageQueryShape = { page: pageSchema, limit: limitSchema };

/** `pagination` object of list envelopes (applications, traces, evaluations). */
export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
/** The `pagination` object of list envelopes: `page`, `limit`, `total` and `totalPages`. */
export type Pagination = z.infer<typeof paginationSchema>;

/** Builds the `pagination` object for a page of a list with `total` items. */
export function paginationOf(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * Adds the "end on or after start" rule to a schema carrying optional or required
 * `start`/`end` ISO strings. The issue is reported on `end`.
 */
export function refineRange<T extends { start?: string | undefined; end?: string | undefined }>(
  value: T,
  ctx: z.RefinementCtx,
): void {
  if (value.start !== undefined && value.end !== undefined && value.end < value.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be on or after start' });
  }
}
