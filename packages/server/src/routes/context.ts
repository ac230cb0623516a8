import { uuidSchema } from '@aqm/wire';
import { notFound, validationError } from '../errors.js';
import type { FairTurns } from '../fair-turns.js';
import type { ScoringPool } from '../scoring-pool.js';
import type { ApplicationRecord } from '../store/applications-repository.js';
import type { Store } from '../store/store.js';

/** What the handlers share: the store, the route prefix, the clock, the scoring workers and the turns. */
export interface ServiceContext {
  store: Store;
  /** The route prefix, e.g. `/api`. */
  prefix: string;
  /** The current time as an ISO 8601 UTC string. */
  now(): string;
  /** Scores submitted traces off the event loop, fairly between projects. */
  scoring: ScoringPool;
  /** Turns on the event loop for synchronous work, round-robin over projects (long writes go in chunks). */
  turns: FairTurns;
}

/**
 * The caller's application, or 404 when it does not exist or belongs to another project (the
 * two answers are the same on purpose).
 */
export function requireApplication(
  ctx: ServiceContext,
  projectId: string,
  applicationId: string,
): ApplicationRecord {
  const app = ctx.store.applications.find(projectId, applicationId);
  if (app === undefined) throw notFound(`Application ${applicationId}`);
  return app;
}

/** Throws the 400 envelope when `checks` found field errors (catalog checks of bodies). */
export function throwIfInvalid(errors: ReadonlyArray<{ path: string; message: string }>): void {
  if (errors.length > 0) throw validationError([...errors]);
}

/** Whether a string is a UUID (ids of applications and guardrail records). */
export function isUuid(value: string): boolean {
  return uuidSchema.safeParse(value).success;
}
