import type { EvaluationTraceInput, UpdateGuardrailsBody } from '@aqm/client';
import {
  guardrailEvaluationPageSchema,
  guardrailEvaluationSchema,
  guardrailEvaluationSummarySchema,
  guardrailsConfigSchema,
  validatorCatalogEntrySchema,
} from '@aqm/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aroundNow, collect, makeTrace, type Service, startService, uniqueName } from './helpers.js';

/** The placeholder the `pii` validator's `mask` puts in place of an e-mail address. */
const EMAIL_MASK = '[EMAIL]';

// client.guardrails against the local service: configuration, the validator catalog, and the
// records written when traces are submitted with guardrails enabled.
describe('client.guardrails', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  it('validators lists the catalog of validator types with their stages and config templates', async () => {
    const catalog = validatorCatalogEntrySchema.array().parse(await service.client.guardrails.validators());
    const types = catalog.map((v) => v.type);
    expect(new Set(types).size).toBe(types.length);
    const pii = catalog.find((v) => v.type === 'pii');
    expect(pii?.stages).toEqual(expect.arrayContaining(['input', 'output']));
    expect(pii?.configTemplate.entities?.enum).toContain('EMAIL_ADDRESS');
  });

  it('update saves the configuration and get reads it back', async () => {
    const { client } = service;
    const { id } = await client.applications.create({ name: uniqueName('guarded') });
    const body: UpdateGuardrailsBody = {
      enable_guard_rails: true,
      input_validators: [
        { type: 'prompt-injection', on_fail: 'fail', config: { threshold: 0.6 } },
        { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] } },
      ],
      output_validators: [{ type: 'toxicity', on_fail: 'filter' }],
    };
    const saved = guardrailsConfigSchema.parse(await client.guardrails.update(id, body));
    expect(saved).toEqual(body);
    expect(guardrailsConfigSchema.parse(await client.guardrails.get(id))).toEqual(saved);
    // Arrays given replace the stored ones; omitted fields stay.
    const switched = await client.guardrails.update(id, { output_validators: [] });
    expect(switched).toEqual({ ...body, output_validators: [] });
    expect(await client.guardrails.get(id)).toEqual(switched);
  });

  describe('evaluations, after submitting PII prompts with a pii mask validator', () => {
    let appId: string;
    let traces: EvaluationTraceInput[];
    const range = aroundNow();
    beforeAll(async () => {
      const { client } = service;
      appId = (await client.applications.create({ name: uniqueName('pii') })).id;
      await client.guardrails.update(appId, {
        enable_guard_rails: true,
        input_validators: [{ type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS'] } }],
      });
      const start = Date.now() - 60_000;
      traces = Array.from({ length: 5 }, (_, i) =>
        makeTrace(start + i * 1000, 400, {
          prompt: `Please update my account, my e-mail is user${i}@example.com, thanks.`,
          environment: 'staging',
          appVersion: `1.4.${i}`,
        }),
      );
      await client.evaluations.submit(appId, { traces });
    });

    /** The submitted trace a record belongs to. */
    function traceOf(traceId: string): EvaluationTraceInput {
      const trace = traces.find((t) => t.traceId === traceId);
      if (trace === undefined) throw new Error(`no submitted trace ${traceId}`);
      return trace;
    }

    it('list answers one page of records with count, page and limit', async () => {
      const page = guardrailEvaluationPageSchema.parse(
        await service.client.guardrails.evaluations.list(appId, { ...range, limit: 2 }),
      );
      expect(page).toMatchObject({ count: traces.length, page: 1, limit: 2 });
      expect(page.results).toHaveLength(2);
      for (const record of page.results) {
        const trace = traceOf(record.traceId);
        expect(record).toMatchObject({
          guardrail_stage: 'input',
          passStatus: 'error',
          categories: ['pii'],
          final_content: trace.prompt.replace(/user\d@example\.com/, EMAIL_MASK),
        });
      }
      const filtered = await service.client.guardrails.evaluations.list(appId, {
        ...range,
        stage: 'output',
      });
      expect(filtered).toEqual({ results: [], count: 0, page: 1, limit: 20 });
    });

    it('get answers the full record: prompt, response, masked final_content and components', async () => {
      const { client } = service;
      const [summary] = (await client.guardrails.evaluations.list(appId, { ...range, limit: 1 })).results;
      const record = guardrailEvaluationSchema.parse(
        await client.guardrails.evaluations.get(appId, summary!.id),
      );
      const trace = traceOf(record.traceId);
      expect(record).toMatchObject({ ...summary, prompt: trace.prompt, response: trace.response });
      expect(record.final_content).toBe(trace.prompt.replace(/user\d@example\.com/, EMAIL_MASK));
      expect(record.final_content).not.toMatch(/@example\.com/);
      expect(record.app_version).toBe(trace.appVersion);
      expect(record.environment).toBe(trace.environment);
      expect(record.allComponents).toEqual([
        expect.objectContaining({ type: 'pii', category: 'pii', passed: false, onFail: 'mask' }),
      ]);
    });

    it('iterate walks every page (3 here) and yields each record once', async () => {
      const before = service.srv.requestCount('guardrails.evaluations.list');
      const records = await collect(
        service.client.guardrails.evaluations.iterate(appId, { ...range, limit: 2 }),
      );
      expect(records.map((r) => guardrailEvaluationSummarySchema.parse(r).traceId).sort()).toEqual(
        traces.map((t) => t.traceId).sort(),
      );
      expect(new Set(records.map((r) => r.id)).size).toBe(traces.length);
      expect(service.srv.requestCount('guardrails.evaluations.list') - before).toBe(3);
    });
  });
});
