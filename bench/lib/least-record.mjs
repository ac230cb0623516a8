// The least record of the contract, shared by bench/floor.mjs (lib/floor-stages.mjs, in process) and the
// bench's `least` probes (lib/least-processor.mjs, in the harness): the prompt and response read with one
// `JSON.parse` per `gen_ai.*.messages`, the fields this workload has, both spans with their attributes.

const isoOf = (hrTime) => new Date(hrTime[0] * 1000 + hrTime[1] / 1e6).toISOString();
const KINDS = ['internal', 'server', 'client', 'producer', 'consumer'];

/** The text of the first part of the first message of a `gen_ai.*.messages` attribute. */
function firstText(json) {
  return JSON.parse(json)[0].parts[0].content;
}

/** A span as the record carries it; `withContent: false` leaves the messages out (not the contract). */
function leastWireSpan(span, withContent) {
  let attributes = span.attributes;
  if (!withContent) {
    // Copied without the two keys (not `delete`, which would turn the copy into a slow dictionary).
    attributes = {};
    for (const key of Object.keys(span.attributes))
      if (key !== 'gen_ai.input.messages' && key !== 'gen_ai.output.messages')
        attributes[key] = span.attributes[key];
  }
  const wire = {
    spanId: span.spanContext().spanId,
    name: span.name,
    kind: KINDS[span.kind],
    startTime: isoOf(span.startTime),
    endTime: isoOf(span.endTime),
    status: { code: 'unset' },
    attributes,
  };
  if (span.parentSpanContext) wire.parentSpanId = span.parentSpanContext.spanId;
  return wire;
}

/**
 * The least record of a trace: `chat` the span with the messages, `root` the trace's root, `spans` the
 * spans it carries ('all' as the contract has them; 'content-once' without the messages; 'none').
 */
export function leastRecord(chat, root, spansInRecord, spans = 'all') {
  const record = {
    traceId: root.spanContext().traceId,
    prompt: firstText(chat.attributes['gen_ai.input.messages']),
    response: firstText(chat.attributes['gen_ai.output.messages']),
    startTime: isoOf(root.startTime),
    endTime: isoOf(root.endTime),
    status: 'success',
    model: chat.attributes['gen_ai.response.model'],
    provider: chat.attributes['gen_ai.provider.name'],
    usage: { inputTokens: 340, outputTokens: 150, totalTokens: 490 },
  };
  if (spans !== 'none') record.spans = spansInRecord.map((span) => leastWireSpan(span, spans === 'all'));
  return record;
}
