import { type Baggage, type Context, propagation } from '@opentelemetry/api';
import { ATTR_SESSION_ID, ATTR_USER_ID } from './attributes.js';
import { expressDiag } from './diag.js';
import { describeValue } from './option-checks.js';
import type { IdReader } from './options.js';

/** The session and user of a request, when known. */
export interface RequestIdentity {
  sessionId: string | undefined;
  userId: string | undefined;
}

/** Longest id kept: ids are labels, and a header can be made arbitrarily long by a client. */
const MAX_ID_CHARS = 256;

function readId<Req>(name: string, reader: IdReader<Req>, req: Req): string | undefined {
  let value: unknown;
  try {
    value = reader(req);
  } catch (error) {
    expressDiag.warn(`the ${name} function threw; the request is traced without a ${name}`, error);
    return undefined;
  }
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') {
    expressDiag.warn(
      `expected the ${name} function to return a string, got ${describeValue(value)}; ignored`,
    );
    return undefined;
  }
  return value.length > MAX_ID_CHARS ? value.slice(0, MAX_ID_CHARS) : value;
}

/**
 * Reads the session and user ids of a request with the configured readers. When a reader finds
 * none, the id an upstream service put in the incoming baggage is kept, so a chain of services
 * shares one session. A reader that throws or returns a non-string is reported through `diag`.
 */
export function readIdentity<Req>(
  readers: { sessionId: IdReader<Req>; userId: IdReader<Req> },
  req: Req,
  baggage: Baggage | undefined,
): RequestIdentity {
  return {
    sessionId: readId('sessionId', readers.sessionId, req) ?? baggage?.getEntry(ATTR_SESSION_ID)?.value,
    userId: readId('userId', readers.userId, req) ?? baggage?.getEntry(ATTR_USER_ID)?.value,
  };
}

/** `ctx` with `session.id` and `user.id` set in its baggage (other entries kept). */
export function withIdentityBaggage(ctx: Context, identity: RequestIdentity): Context {
  if (identity.sessionId === undefined && identity.userId === undefined) return ctx;
  let baggage = propagation.getBaggage(ctx) ?? propagation.createBaggage();
  if (identity.sessionId !== undefined)
    baggage = baggage.setEntry(ATTR_SESSION_ID, { value: identity.sessionId });
  if (identity.userId !== undefined) baggage = baggage.setEntry(ATTR_USER_ID, { value: identity.userId });
  return propagation.setBaggage(ctx, baggage);
}
