import { maskPII } from '@aqm/otel';
import { type RunningServer, startServer } from '@aqm/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeTrace, uniqueName } from './helpers.js';

// Personal data in the formats the exporter masks, and numbers that are not personal data.
const SAMPLES = [
  'Mail bob@example.com or call +1 415 555 0100',
  'card 4111 1111 1111 1111 exp 12/29',
  'pay 5555-5555-5555-4444 now',
  'IBAN DE89 3704 0044 0532 0130 00.',
  'Tel: +44 20 7946 0958',
  'ring (555) 123-4567',
  'call 0170 1234567 now',
  'Tel. 0170/1234567',
  'appelez le 06 12 34 56 78',
  'text 4155550100 today',
  'dial 555-0100.',
  'call +4915112345678',
  'Tel +49 (0)170 1234567',
  'call 1-800-555-0199',
  '555-0100 or 555-0199',
  'released 2026-01-31 at 12:30, version 1.2.3, order #12345678, total 1234.56',
  'a long number 12345678901234567890123 and a short one 12345',
];

describe('the exporter and the local service agree on personal data', () => {
  let srv: RunningServer;
  let call: ReturnType<typeof caller>;
  let appId: string;
  beforeAll(async () => {
    srv = await startServer({ apiKeys: [{ key: 'k', projectId: 'p' }] });
    call = caller(srv.url, 'k');
    appId = (await call('POST', '/applications', { json: { name: uniqueName('pii') } })).body.data.id;
    // The kinds both sides know (the guardrail also finds US SSNs and IP addresses).
    const entities = ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE'];
    await call('PUT', `/applications/${appId}/guardrails`, {
      json: {
        enable_guard_rails: true,
        output_validators: [{ type: 'pii', on_fail: 'mask', config: { entities } }],
      },
    });
  });
  afterAll(() => srv.close());

  it.each(SAMPLES)(
    '%j: the pii guardrail masks what maskPII masks, with the same placeholders',
    async (text) => {
      const trace = makeTrace(new Date(), 10, { response: text });
      expect(
        (await call('POST', `/applications/${appId}/evaluations`, { json: { traces: [trace] } })).status,
      ).toBe(200);
      const day = 24 * 3600 * 1000;
      const range = `start=${new Date(Date.now() - day).toISOString()}&end=${new Date(Date.now() + day).toISOString()}`;
      const records = (await call('GET', `/applications/${appId}/guardrails/evaluations?${range}&limit=100`))
        .body.data.results as Array<{ traceId: string; final_content: string }>;
      const record = records.find((r) => r.traceId === trace.traceId);
      expect(record?.final_content).toBe(maskPII(text, { field: 'response' }));
    },
  );
});
