// Issue 30's floor in the bench: the least record of the contract (bench/lib/floor-stages.mjs's
// `least-record`) built in onEnd() and posted like ours, 100 records a request over a kept-alive
// node:http agent. No assembly beyond a map of open traces, no classification, conventions,
// sanitising, retries or bounds: what any implementation of the contract must at least do on the
// app's thread, measured in the same harness as the pipelines. A probe, not a product.
import { Agent, request } from 'node:http';
import { leastRecord } from './least-record.mjs';

const PER_REQUEST = 100;

export class LeastRecordProcessor {
  #url;
  #headers;
  #agent = new Agent({ keepAlive: true });
  /** traceId → ended spans, until its root ends. */
  #open = new Map();
  #bodies = [];
  #inFlight = new Set();

  #contentOnce;

  /** `contentOnce`: the messages left out of the spans (the prompt and response carried once: not the contract). */
  constructor({ baseUrl, apiKey, applicationId, contentOnce = false }) {
    this.#contentOnce = contentOnce;
    this.#url = new URL(`/api/v1/applications/${applicationId}/evaluations`, baseUrl);
    this.#headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  }

  onStart() {}

  onEnd(span) {
    const traceId = span.spanContext().traceId;
    let spans = this.#open.get(traceId);
    if (spans === undefined) {
      spans = [];
      this.#open.set(traceId, spans);
    }
    spans.push(span);
    if (span.parentSpanContext !== undefined) return;
    this.#open.delete(traceId);
    const chat = spans.find((s) => s.attributes['gen_ai.input.messages'] !== undefined) ?? span;
    const record = leastRecord(chat, span, spans, this.#contentOnce ? 'content-once' : 'all');
    this.#bodies.push(Buffer.from(JSON.stringify(record)));
    if (this.#bodies.length >= PER_REQUEST) this.#send();
  }

  #send() {
    if (this.#bodies.length === 0) return;
    const comma = Buffer.from(',');
    const parts = [Buffer.from('{"traces":[')];
    for (const [i, body] of this.#bodies.entries()) {
      if (i > 0) parts.push(comma);
      parts.push(body);
    }
    parts.push(Buffer.from(']}'));
    this.#bodies = [];
    const body = Buffer.concat(parts);
    const sent = new Promise((resolve) => {
      const req = request(
        this.#url,
        { method: 'POST', agent: this.#agent, headers: { ...this.#headers, 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', resolve);
      req.end(body);
    });
    this.#inFlight.add(sent);
    sent.then(() => this.#inFlight.delete(sent));
  }

  async forceFlush() {
    this.#send();
    await Promise.all([...this.#inFlight]);
  }

  async shutdown() {
    await this.forceFlush();
    this.#agent.destroy();
  }
}
