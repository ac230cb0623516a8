import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/store.js';
import { applicationRecord, guardrailRecord, trace } from './fixtures.js';

const TRACES = 100_000;

// A list must stay an index walk however many traces are stored: with 100,000 rows, the first
// page of each list is served by an index (no table scan, no temporary sort).
describe('list queries use indexes with 100,000 stored traces', () => {
  let store: Store;
  let appId: string;
  let otherAppId: string;
  /** Guardrail records of `appId` from 2026-01-01T00:00Z to 2026-01-02T00:00Z inclusive. */
  let firstDayRecords = 0;
  let appTraces = 0;

  beforeAll(() => {
    store = openStore();
    const app = applicationRecord('p', 'big', '2026-01-01T00:00:00.000Z');
    const other = applicationRecord('p', 'other', '2026-01-01T00:00:00.000Z');
    store.applications.insert(app);
    store.applications.insert(other);
    appId = app.id;
    otherAppId = other.id;
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    store.db.transaction(() => {
      for (let i = 0; i < TRACES; i++) {
        const owner = i % 2 === 0 ? appId : otherAppId;
        const t = trace(new Date(base + i * 1000).toISOString(), 50, {
          status: i % 10 === 0 ? 'error' : 'success',
        });
        store.traces.replace(owner, t);
        if (owner === appId) appTraces++;
        if (i % 25 === 0) {
          store.guardrailRecords.insert(owner, guardrailRecord(t.traceId, t.startTime));
          if (owner === appId && t.startTime <= '2026-01-02T00:00:00.000Z') firstDayRecords++;
        }
      }
    });
  }, 120_000);
  afterAll(() => store.close());

  it('stored them all', () => {
    expect(store.db.get('SELECT COUNT(*) AS n FROM traces')?.n).toBe(TRACES);
  });

  it('traces: first page, newest first, via traces_app_start without a temp sort', () => {
    const page = store.traces.list(appId, { page: 1, limit: 20 });
    expect(page.total).toBe(appTraces);
    expect(page.items).toHaveLength(20);
    const starts = page.items.map((t) => t.startTime);
    expect(starts).toEqual([...starts].sort().reverse());
    const plan = store.traces.explainList(appId, { page: 1, limit: 20 }).join('\n');
    expect(plan).toMatch(/USING INDEX traces_app_start/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plan).not.toMatch(/SCAN traces\b(?! USING)/);
  });

  it('traces filtered by status use traces_app_status_start', () => {
    const plan = store.traces.explainList(appId, { page: 1, limit: 20, status: 'error' }).join('\n');
    expect(plan).toMatch(/USING INDEX traces_app_status_start \(application_id=\? AND status=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('traces filtered by status and range use an index of traces without a sort', () => {
    const query = {
      page: 1,
      limit: 20,
      status: 'error' as const,
      start: '2026-01-01T01:00:00.000Z',
      end: '2026-01-01T02:00:00.000Z',
    };
    const page = store.traces.list(appId, query);
    expect(
      page.items.every((t) => t.status === 'error' && t.startTime >= query.start && t.startTime <= query.end),
    ).toBe(true);
    const plan = store.traces.explainList(appId, query).join('\n');
    expect(plan).toMatch(
      /USING INDEX traces_app_(status_)?start \(application_id=\?.* AND start_time>\? AND start_time<\?\)/,
    );
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('guardrail records in a range use guardrail_records_app_created', () => {
    const query = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z', page: 1, limit: 20 };
    expect(store.guardrailRecords.list(appId, query).total).toBe(firstDayRecords);
    const plan = store.guardrailRecords.explainList(appId, query).join('\n');
    expect(plan).toMatch(/USING INDEX guardrail_records_app_created/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('evaluation results of a trace use evaluation_results_app_trace_created', () => {
    const plan = store.evaluationResults
      .explainList(appId, { page: 1, limit: 20, traceId: 'a'.repeat(32) })
      .join('\n');
    expect(plan).toMatch(/USING INDEX evaluation_results_app_trace_created/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('applications of a project use applications_project_created', () => {
    const plan = store.applications.explainList('p', { page: 1, limit: 20 }).join('\n');
    expect(plan).toMatch(/USING INDEX applications_project_created/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('evaluation results by metric use evaluation_results_app_metric_created', () => {
    const plan = store.evaluationResults
      .explainList(appId, { page: 1, limit: 20, metric: 'toxicity' })
      .join('\n');
    expect(plan).toMatch(/USING INDEX evaluation_results_app_metric_created/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
