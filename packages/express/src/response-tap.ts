import { ByteCollector, decodeUtf8 } from './byte-collector.js';
import { expressDiag } from './diag.js';
import type { CapturedBodyKind } from './options.js';
import { sseEvents } from './sse.js';
import type { AqmExpressResponse, AqmResponse, PassThroughMethod } from './types.js';

/** What the handler sent, ready for `capture.response`. */
export interface TappedBody {
  kind: CapturedBodyKind;
  body: unknown;
  events: string[];
  truncated: boolean;
}

type SentValue = { kind: 'json'; value: unknown } | { kind: 'send'; text: string; truncated: boolean };

/**
 * Watches what a handler sends by wrapping `res.json`, `res.send`, `res.write` and `res.end` on
 * the response object. Each wrapper passes its `this`, arguments and return value through
 * untouched and never throws: bookkeeping errors are reported through `diag`. `onEnd` runs once,
 * inside `res.end` just before the real one, so attributes land before any instrumentation that
 * ends its span in `res.end` does.
 */
export class ResponseTap {
  readonly #res: AqmResponse;
  readonly #maxBytes: number;
  readonly #collector: ByteCollector;
  readonly #onEnd: () => void;
  #sent: SentValue | undefined;
  #ended = false;

  constructor(res: AqmResponse, maxBytes: number, onEnd: () => void) {
    this.#res = res;
    this.#maxBytes = maxBytes;
    this.#collector = new ByteCollector(maxBytes);
    this.#onEnd = onEnd;
    this.#install();
  }

  #install(): void {
    const res: AqmExpressResponse = this.#res;
    // Both are Express's own methods when present: functions whose arguments we pass on as they are.
    const { json, send } = res as { json?: PassThroughMethod; send?: PassThroughMethod };
    if (typeof json === 'function') res.json = this.#wrap(json, (args) => this.#recordJson(args));
    if (typeof send === 'function') res.send = this.#wrap(send, (args) => this.#recordSend(args));
    res.write = this.#wrap(res.write, (args) => this.#recordChunk(args));
    res.end = this.#wrap(res.end, (args) => {
      this.#recordChunk(args);
      if (!this.#ended) {
        this.#ended = true;
        this.#onEnd();
      }
    });
  }

  /** A function that runs `before` (errors reported, never thrown), then the original with the same `this` and arguments. */
  #wrap(original: PassThroughMethod, before: (args: unknown[]) => void): PassThroughMethod {
    return function (this: unknown, ...args: unknown[]): unknown {
      try {
        before(args);
      } catch (error) {
        expressDiag.error('capturing the response failed; the response is unaffected', error);
      }
      return Reflect.apply(original, this, args);
    };
  }

  // res.json(value) → res.send(text) → res.end(bytes): the first of these to see the body records it.
  #recordJson(args: unknown[]): void {
    // The deprecated Express 4 form res.json(status, body) falls through to res.send(text).
    if (this.#sent === undefined && args.length === 1) this.#sent = { kind: 'json', value: args[0] };
  }

  #recordSend(args: unknown[]): void {
    if (this.#sent !== undefined) return;
    const [body] = args;
    if (typeof body === 'string') {
      this.#sent = { kind: 'send', text: body, truncated: false };
    } else if (body instanceof Uint8Array) {
      const cut = body.byteLength > this.#maxBytes;
      this.#sent = { kind: 'send', text: decodeUtf8(body.subarray(0, this.#maxBytes), cut), truncated: cut };
    }
    // Other values: Express turns objects into res.json(value) and a status code into its text.
  }

  #recordChunk(args: unknown[]): void {
    if (this.#sent !== undefined) return;
    const [chunk, encoding] = args;
    if (typeof chunk !== 'function') this.#collector.add(chunk, encoding);
  }

  /** What was sent, or `undefined` when the response had no body at all. */
  body(): TappedBody | undefined {
    const sent = this.#sent;
    if (sent?.kind === 'json') return { kind: 'json', body: sent.value, events: [], truncated: false };
    if (sent?.kind === 'send')
      return { kind: 'send', body: sent.text, events: [], truncated: sent.truncated };
    if (!this.#collector.touched) return undefined;
    const text = this.#collector.text();
    const truncated = this.#collector.truncated;
    if (isEventStream(this.#res.getHeader('content-type'))) {
      const events = sseEvents(text);
      return { kind: 'sse', body: events.join(''), events, truncated };
    }
    return { kind: 'stream', body: text, events: [], truncated };
  }
}

function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^\s*text\/event-stream\s*(;|$)/i.test(contentType);
}
