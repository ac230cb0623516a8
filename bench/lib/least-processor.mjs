// Issue 30's floor in the bench: the least record of the contract (bench/lib/floor-stages.mjs's
// `least-record`) built in onEnd() and posted like ours, 100 records a request over a kept-alive
// node:http agent. No assembly beyond a map of open traces, no classification, conventions,
// sanitising, retries or bounds: what any implementation of the contract must at least do on the
// app's thread, measured in the same harness as the pipelines. A probe, not a product.
import { Agent, request } from 'node:http';

const KINDS = ['internal', 'server', 'client', 'producer', 'consumer'];
const PER_REQUEST = 100;
const isoOf = (hrTime) => new Date(hrTime[0] * 1000 + hrTime[1] / 1e6).toISOString();
const firstText = (json) => JSON.parse(json)[0].parts[0].content;

const CONTENT_KEYS = new Set(['gen_ai.input.messages', 'gen_ai.output.messages']);

/** The span's attributes without the messages (copied, not `delete`d, to keep a fast object). */
function withoutContent(attributes) {
  const kept = {};
  for (const key of Object.keys(attributes)) if (!CONTENT_KEYS.has(key)) kept[key] = attributes[key];
  return kept;
}

function wireSpan(span, contentOnce) {
  const wire = {
    spanId: span.spanContext().spanId,
    name: span.name,
    kind: KINDS[span.kind],
    startTime: isoOf(span.startTime),
    endTime: isoOf(span.endTime),
    status: { code: 'unset' },
    attributes: contentOnce ? withoutContent(span.attributes) : span.attributes,
  };
  if (span.parentSpanContext) wire.parentSpanId = span.parentSpanContext.spanId;
  return wire;
}

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
    const record = {
      traceId,
      prompt: firstText(chat.attributes['gen_ai.input.messages']),
      response: firstText(chat.attributes['gen_ai.output.messages']),
      startTime: isoOf(span.startTime),
      endTime: isoOf(span.endTime),
      status: 'success',
      model: chat.attributes['gen_ai.response.model'],
      provider: chat.attributes['gen_ai.provider.name'],
      usage: { inputTokens: 340, outputTokens: 150, totalTokens: 490 },
      spans: spans.map((s) => wireSpan(s, this.#contentOnce)),
    };
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
