import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openStore, type Store } from '../src/store/store.js';
import { applicationRecord, guardrailRecord, trace } from './fixtures.js';

describe('store', () => {
  let store: Store;
  beforeEach(() => {
    store = openStore();
  });
  afterEach(() => store.close());

  describe('applications', () => {
    it('scopes every read to the project', () => {
      const app = applicationRecord('p1', 'bot', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      expect(store.applications.find('p1', app.id)).toEqual(app);
      expect(store.applications.find('p2', app.id)).toBeUndefined();
      expect(store.applications.list('p2', { page: 1, limit: 20 }).total).toBe(0);
      expect(
        store.applications.update('p2', app.id, { name: 'x', updatedAt: app.updatedAt }),
      ).toBeUndefined();
      expect(store.applications.find('p1', app.id)?.name).toBe('bot');
    });

    it('lists newest first, pages, and searches names case-insensitively (beyond ASCII too)', () => {
      const names = ['Alpha', 'beta', 'Über-Bot', 'gamma', 'ALPHABET'];
      names.forEach((name, i) => {
        store.applications.insert(applicationRecord('p', name, `2026-01-0${i + 1}T00:00:00.000Z`));
      });
      const all = store.applications.list('p', { page: 1, limit: 100 });
      expect(all.items.map((a) => a.name)).toEqual([...names].reverse());
      const page2 = store.applications.list('p', { page: 2, limit: 2 });
      expect(page2.items.map((a) => a.name)).toEqual([names[2], names[1]]);
      expect(page2.total).toBe(names.length);
      expect(
        store.applications.list('p', { page: 1, limit: 20, search: 'alpha' }).items.map((a) => a.name),
      ).toEqual(['ALPHABET', 'Alpha']);
      expect(
        store.applications.list('p', { page: 1, limit: 20, search: 'über' }).items.map((a) => a.name),
      ).toEqual(['Über-Bot']);
    });

    it('breaks ties of equal createdAt by insertion order (newest first)', () => {
      const at = '2026-01-01T00:00:00.000Z';
      for (const name of ['one', 'two', 'three']) store.applications.insert(applicationRecord('p', name, at));
      expect(store.applications.list('p', { page: 1, limit: 20 }).items.map((a) => a.name)).toEqual([
        'three',
        'two',
        'one',
      ]);
    });

    it('knows which names are taken in a project, and the unique index refuses duplicates', () => {
      const app = applicationRecord('p', 'bot', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      expect(store.applications.nameTaken('p', 'bot')).toBe(true);
      expect(store.applications.nameTaken('p', 'bot', app.id)).toBe(false);
      expect(store.applications.nameTaken('other', 'bot')).toBe(false);
      expect(() => store.applications.insert({ ...app, id: randomUUID() })).toThrow(/UNIQUE/);
    });

    it('updates only the fields given', () => {
      const app = applicationRecord('p', 'bot', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      const updated = store.applications.update('p', app.id, {
        description: 'new',
        name: undefined,
        updatedAt: '2026-02-01T00:00:00.000Z',
      });
      expect(updated).toEqual({ ...app, description: 'new', updatedAt: '2026-02-01T00:00:00.000Z' });
      expect(store.applications.find('p', app.id)).toEqual(updated);
    });
  });

  describe('traces, results and guardrail records', () => {
    let appId: string;
    beforeEach(() => {
      const app = applicationRecord('p', 'bot', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      appId = app.id;
    });

    it('replaces a trace sent again, together with its results and records', () => {
      const first = trace('2026-01-01T10:00:00.000Z', 100, { prompt: 'first' });
      store.traces.replace(appId, first);
      store.evaluationResults.insert(appId, {
        id: randomUUID(),
        traceId: first.traceId,
        metric: 'toxicity',
        score: 1,
        passed: true,
        createdAt: '2026-01-01T10:00:01.000Z',
      });
      store.guardrailRecords.insert(
        appId,
        guardrailRecord(first.traceId, '2026-01-01T10:00:01.000Z', { categories: ['pii'] }),
      );
      expect(store.evaluationResults.forTrace(appId, first.traceId)).toHaveLength(1);

      const again = { ...first, prompt: 'second' };
      store.traces.replace(appId, again);
      expect(store.traces.find(appId, first.traceId)?.trace.prompt).toBe('second');
      expect(store.traces.list(appId, { page: 1, limit: 20 }).total).toBe(1);
      expect(store.evaluationResults.forTrace(appId, first.traceId)).toEqual([]);
      const range = {
        start: '2026-01-01T00:00:00.000Z',
        end: '2026-01-02T00:00:00.000Z',
        page: 1,
        limit: 20,
      };
      expect(store.guardrailRecords.list(appId, range).total).toBe(0);
      expect(store.db.get('SELECT COUNT(*) AS n FROM guardrail_record_categories')?.n).toBe(0);
    });

    it('filters traces by range (inclusive), status and search, newest first', () => {
      const a = trace('2026-01-01T10:00:00.000Z', 10, { prompt: 'Hello WORLD' });
      const b = trace('2026-01-01T11:00:00.000Z', 10, { status: 'error', response: 'oops' });
      const c = trace('2026-01-01T12:00:00.000Z', 10);
      for (const t of [a, b, c]) store.traces.replace(appId, t);
      const ids = (query: Parameters<Store['traces']['list']>[1]) =>
        store.traces.list(appId, query).items.map((t) => t.traceId);
      expect(ids({ page: 1, limit: 20 })).toEqual([c.traceId, b.traceId, a.traceId]);
      expect(ids({ page: 1, limit: 20, start: a.startTime, end: b.startTime })).toEqual([
        b.traceId,
        a.traceId,
      ]);
      expect(ids({ page: 1, limit: 20, status: 'error' })).toEqual([b.traceId]);
      expect(ids({ page: 1, limit: 20, search: 'world' })).toEqual([a.traceId]);
      expect(ids({ page: 1, limit: 20, search: 'OOPS' })).toEqual([b.traceId]);
    });

    it('filters guardrail records by status, stage, category and search within the range', () => {
      const t = trace('2026-01-01T10:00:00.000Z', 10);
      store.traces.replace(appId, t);
      const pii = guardrailRecord(t.traceId, '2026-01-01T10:00:00.000Z', {
        passStatus: 'error',
        categories: ['pii', 'secrets'],
        final_content: 'mail [EMAIL]',
      });
      const ok = guardrailRecord(t.traceId, '2026-01-01T11:00:00.000Z', { guardrail_stage: 'output' });
      const late = guardrailRecord(t.traceId, '2026-01-03T00:00:00.000Z');
      for (const r of [pii, ok, late]) store.guardrailRecords.insert(appId, r);
      const base = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z', page: 1, limit: 20 };
      const ids = (extra: object) =>
        store.guardrailRecords.list(appId, { ...base, ...extra }).items.map((r) => r.id);
      expect(ids({})).toEqual([ok.id, pii.id]);
      expect(ids({ passStatus: 'error' })).toEqual([pii.id]);
      expect(ids({ stage: 'output' })).toEqual([ok.id]);
      expect(ids({ category: 'secrets' })).toEqual([pii.id]);
      expect(ids({ search: 'mail [email]' })).toEqual([pii.id]);
      expect(ids({ start: late.created_at, end: late.created_at })).toEqual([late.id]);
      expect(store.guardrailRecords.find(appId, pii.id)).toEqual(pii);
      expect(store.guardrailRecords.find(randomUUID(), pii.id)).toBeUndefined();
    });
  });

  describe('on disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'aqm-store-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('creates the directory and file, and keeps data across reopening', () => {
      const dataDir = join(dir, 'nested', 'data');
      const first = openStore({ dataDir });
      const app = applicationRecord('p', 'kept', '2026-01-01T00:00:00.000Z');
      first.applications.insert(app);
      first.close();
      expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(true);
      const second = openStore({ dataDir });
      try {
        expect(second.applications.find('p', app.id)).toEqual(app);
        expect(second.db.get('PRAGMA user_version')?.user_version).toBe(1);
      } finally {
        second.close();
      }
    });
  });

  it('close() is safe to call twice', () => {
    const s = openStore();
    s.close();
    expect(() => s.close()).not.toThrow();
    expect(s.db.isOpen).toBe(false);
  });
});

describe('statement cache', () => {
  it('keeps working after a statement fails (the failed statement is replaced)', () => {
    const store = openStore();
    try {
      const app = applicationRecord('p', 'bot', '2026-01-01T00:00:00.000Z');
      store.applications.insert(app);
      expect(() => store.applications.insert({ ...app, id: randomUUID() })).toThrow(/UNIQUE/);
      const other = applicationRecord('p', 'other', '2026-01-01T00:00:00.000Z');
      store.applications.insert(other);
      expect(store.applications.find('p', other.id)).toEqual(other);
    } finally {
      store.close();
    }
  });
});
