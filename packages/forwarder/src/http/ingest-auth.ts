import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks ingest tokens in constant time: each token is kept as its SHA-256, and a presented token
 * is hashed and compared with `timingSafeEqual` against every one (no early exit), so neither
 * its length nor its first differing byte shows in the time taken.
 */
export class IngestTokens {
  readonly #hashes: readonly Buffer[];

  /** @param tokens - the accepted tokens; an empty list accepts every request. */
  constructor(tokens: readonly string[]) {
    this.#hashes = tokens.map(sha256);
  }

  /** Whether any token is configured. */
  get enabled(): boolean {
    return this.#hashes.length > 0;
  }

  /**
   * Whether the request's `Authorization: Bearer <token>` or `x-api-key` carries an accepted token.
   *
   * @example
   * tokens.accepts(request.headers) // true or false
   */
  accepts(headers: Record<string, string | string[] | undefined>): boolean {
    if (!this.enabled) return true;
    const presented = presentedToken(headers);
    if (presented === undefined) return false;
    const hash = sha256(presented);
    let match = false;
    for (const known of this.#hashes) match = timingSafeEqual(hash, known) || match;
    return match;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
    if (match !== null) return match[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? apiKey : undefined;
}
