import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptReply, deferred, errorReply, FakeService } from './export-helpers/fake-service.js';
import { makeRecord, makeSpan, recordBytes } from './export-helpers/records.js';
import { createTestSender } from './export-helpers/sender-setup.js';

// The queue holds each record as UTF-8 bytes: text outside ASCII is where a byte count or an
// encoding step would go wrong (2-, 3- and 4-byte sequences, and a lone surrogate, which
// JSON.stringify escapes).
const PROMPT = 'Résumé für 東京 — 🚀 naïve? \uD800 end';
const RESPONSE = 'Ответ: да ✓ 👍🏽';

let service: FakeService;
beforeEach(async () => {
  service = await FakeService.start();
});
afterEach(async () => {
  await service.close();
});

describe('TraceSender with text outside ASCII', () => {
  it('counts queued bytes in UTF-8 and delivers every character as given', async () => {
    const gate = deferred();
    service.handler = async (request) => {
      await gate.promise;
      return acceptReply(request);
    };
    const { sender, client } = createTestSender(service, { maxBatchTraces: 2, concurrency: 1 });
    const records = Array.from({ length: 3 }, (_, i) =>
      makeRecord({ prompt: `${PROMPT} ${i}`, response: RESPONSE }),
    );
    const tickets = records.map((record) => sender.enqueue(record));
    const bytes = records.reduce((sum, record) => sum + recordBytes(record), 0);
    expect(bytes).toBeGreaterThan(records.reduce((sum, record) => sum + JSON.stringify(record).length, 0));
    expect(sender.stats().queuedBytes).toBe(bytes);
    gate.resolve();
    expect(await Promise.all(tickets)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(service.acceptedTraces.map((trace) => [trace.prompt, trace.response])).toEqual(
      records.map((record) => [record.prompt, record.response]),
    );
    expect(sender.stats().queuedBytes).toBe(0);
    await client.close();
  });

  it('keeps the text intact when a record is shrunk after a 413', async () => {
    const record = makeRecord({
      prompt: PROMPT,
      response: RESPONSE,
      spans: Array.from({ length: 20 }, (_, i) => makeSpan(i, 400)),
    });
    service.handler = (request) => (request.bytes > 4000 ? errorReply(413) : acceptReply(request));
    const { sender, client } = createTestSender(service);
    expect(await sender.enqueue(record)).toBe('delivered');
    const stored = service.acceptedTraces[0]!;
    expect(stored.spans).toBeUndefined();
    expect([stored.prompt, stored.response]).toEqual([PROMPT, RESPONSE]);
    expect(sender.stats().queuedBytes).toBe(0);
    await client.close();
  });
});
