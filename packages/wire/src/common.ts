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
/** A UUID in a path: UUIDs compare case-insensitively, so it is lower-cased (ids are made lower case). */
export const uuidParamSchema = uuidSchema.transform((value) => value.toLowerCase());

/** The ISO form of the first and the last instant a 4-digit year can write. */
const FIRST_ISO = '0000-01-01T00:00:00.000Z';
const LAST_ISO = '9999-12-31T23:59:59.999Z';

/**
 * An ISO 8601 timestamp. Offsets are accepted and normalised to UTC (`Z`), since the spec
 * says every timestamp is UTC; the normalised form is what travels and is stored. An instant
 * whose UTC form leaves years 0000-9999 (`9999-12-31T23:00:00-05:00`) is refused: its expanded
 * form (`+010000-...`) would sort before every normal date and escape range filters.
 */
export const isoDateTimeSchema = z.iso
  .datetime({
    offset: true,
    error: expects('must be an ISO 8601 date-time, for example 2026-01-31T12:00:00Z'),
  })
  .transform((value, ctx) => {
    const iso = new Date(value).toISOString();
    if (/^\d{4}-/.test(iso)) return iso;
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `must be from ${FIRST_ISO} to ${LAST_ISO} in UTC`,
    });
    return z.NEVER;
  });

/** The largest `page`: beyond it row offsets stop being exact integers. */
export const MAX_PAGE = 1_000_000_000;

/**
 * A query integer: plain decimal digits only. `Number()` would also read `0x10`, `0b11`, `1e3`,
 * `+1` and ` 1`, so strings are checked before they are converted; numbers (from code) pass.
 */
function queryInteger(min: number, max: number, message: string, maxMessage = message) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value),
    z.number({ message }).int({ message }).min(min, { message }).max(max, { message: maxMessage }),
  );
}

/** `page` query parameter: integer >= 1 in decimal digits, default 1. */
export const pageSchema = queryInteger(
  1,
  MAX_PAGE,
  'must be an integer >= 1',
  `must be an integer from 1 to ${MAX_PAGE}`,
).default(1);

/** `limit` query parameter: integer 1..100 in decimal digits, default 20. */
export const limitSchema = queryInteger(
  1,
  MAX_PAGE_SIZE,
  `must be an integer from 1 to ${MAX_PAGE_SIZE}`,
).default(DEFAULT_PAGE_SIZE);

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
