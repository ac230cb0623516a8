import { ForwarderHttpError } from './http-error.js';

/**
 * The bytes of request bodies held while they are received, across all requests and connections,
 * against one bound (`maxBodyBytesInFlight`). Each request's bytes are counted as they are
 * buffered (inflated, for gzip) and given back when its body is read, refused or abandoned: many
 * slow senders whose bodies each stay under `maxBodyBytes` cannot add up past the bound.
 */
export class BodyBudget {
  #inFlight = 0;
  #peak = 0;
  #refused = 0;

  /**
   * @param limit - the most bytes held at once.
   * @param retryAfterSeconds - the `Retry-After` of a refusal, in seconds.
   */
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: () => number,
  ) {}

  /** Bytes held now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most bytes held at once so far. */
  get peak(): number {
    return this.#peak;
  }

  /** Requests refused because the bound was reached. */
  get refused(): number {
    return this.#refused;
  }

  /** Opens the account of one request body. */
  open(): BodyAccount {
    return new BodyAccount(this);
  }

  /** @internal Takes `bytes` if they fit under the bound. */
  take(bytes: number): boolean {
    if (this.#inFlight + bytes > this.limit) {
      this.#refused += 1;
      return false;
    }
    this.#inFlight += bytes;
    this.#peak = Math.max(this.#peak, this.#inFlight);
    return true;
  }

  /** @internal Gives `bytes` back. */
  give(bytes: number): void {
    this.#inFlight -= bytes;
  }

  /** The answer to a request refused because the bound was reached: 503 with `Retry-After`. */
  refusal(): ForwarderHttpError {
    return new ForwarderHttpError(
      503,
      `The forwarder holds ${this.limit} bytes of request bodies at once (maxBodyBytesInFlight); retry after the Retry-After delay`,
      { 'retry-after': String(this.retryAfterSeconds()) },
    );
  }
}

/** What one request body holds of a {@link BodyBudget}. */
export class BodyAccount {
  #held = 0;
  #closed = false;

  constructor(readonly budget: BodyBudget) {}

  /** Counts `bytes` more of this body; `false` (and counts a refusal) when they do not fit. */
  take(bytes: number): boolean {
    if (this.#closed || !this.budget.take(bytes)) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives back all this body held; later calls do nothing. */
  release(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.budget.give(this.#held);
    this.#held = 0;
  }
}
