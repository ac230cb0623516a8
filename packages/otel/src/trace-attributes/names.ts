/**
 * The `aqm.*` span attributes that say who a trace is for and what else describes it, and their
 * bounds. Any span of a trace may carry them; `@aqm/otel` reads them into the record's `userId`,
 * `sessionId` and `metadata` (see `mapping/record-attributes.ts`).
 */

/** The end user (`userId` of the record). Beats `user.id` and the other conventions' user ids. */
export const AQM_USER_ID = 'aqm.user.id';
/** The session or conversation (`sessionId` of the record). Beats `session.id` and the like. */
export const AQM_SESSION_ID = 'aqm.session.id';
/** One metadata entry per attribute: `aqm.metadata.<key>` becomes the record's `metadata[<key>]`. */
export const AQM_METADATA_PREFIX = 'aqm.metadata.';
/** The trace's tags, a string array; merged over the trace into `metadata['aqm.tags']` (JSON text). */
export const AQM_TAGS = 'aqm.tags';

/** Longest user or session id kept (as `@aqm/express` does for header ids): ids are labels. */
export const MAX_ID_CHARS = 256;
/** Most metadata entries given at once (the record holds at most 64 entries in all). */
export const MAX_METADATA_KEYS = 64;
/** Longest metadata key and longest tag, as the wire's short configuration strings. */
export const MAX_LABEL_CHARS = 200;
/** Most tags per scope, span or record. */
export const MAX_TAGS = 64;

/** A metadata value as the wire's record takes it. */
export type AqmMetadataValue = string | number | boolean;

/** Who a trace is for, and what else describes it: checked, bounded, ready to put on spans. */
export interface TraceAttributes {
  readonly userId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly metadata?: Readonly<Record<string, AqmMetadataValue>> | undefined;
  readonly tags?: readonly string[] | undefined;
}
