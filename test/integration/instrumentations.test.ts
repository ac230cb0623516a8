import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, conversationLines, oneLine, printedTraces, ROOT, runNode } from './examples/run-node.js';

// Real instrumentation packages from npm (devDependencies of test/fixtures/instrumentations and
// examples/nodesdk-openai), the real `openai` and LangChain packages, the fake model and the local
// service, each run in its own process as an app runs them. Uses the built @aqm/otel.

const FIXTURE = join(ROOT, 'test', 'fixtures', 'instrumentations');
const EXAMPLE = join(ROOT, 'examples', 'nodesdk-openai');
const RUN_TIMEOUT_MS = 40_000;

interface StoredResult {
  name: string;
  question: string;
  answer: string;
  stored: { prompt: string; response: string; model?: string; context?: string[] } | null;
}

function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as T;
}

// What each one traces: OpenInference and Traceloop both `openai` and LangChain; @aqm/langchain only
// LangChain (the app's direct `openai` calls are not its business).
const REQUESTS = {
  openinference: [
    'openai chat completions',
    'openai responses',
    'langchain template chain',
    'langchain rag chain',
  ],
  traceloop: [
    'openai chat completions',
    'openai responses',
    'langchain template chain',
    'langchain rag chain',
  ],
  'aqm-langchain': ['langchain template chain', 'langchain rag chain'],
};

describe.each(Object.entries(REQUESTS))(
  '%s: the real packages tracing openai and LangChain',
  (instrumentation, requests) => {
    it(
      'record what the app asked and what it got (Chat Completions, Responses, a template chain, a RAG chain), once each',
      async () => {
        const run = await runNode('run.mjs', {
          cwd: FIXTURE,
          env: cleanEnv({ INSTRUMENTATION: instrumentation }),
          timeoutMs: RUN_TIMEOUT_MS,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const report = lastJsonLine<{ traces: number; prompts: string[]; results: StoredResult[] }>(
          run.stdout,
        );
        expect(report.results.map((result) => result.name)).toEqual(requests);
        // One trace per request, plus the template chain run once with no span around it (Traceloop
        // then makes each run a trace of its own): no stray record from a piece of a chain.
        expect(report.traces).toBe(requests.length + 1);
        expect(report.prompts).toEqual(
          [...report.results.map((result) => result.question), 'What is the capital of France?'].sort(),
        );
        const byName = new Map(report.results.map((result) => [result.name, result]));
        for (const result of report.results) {
          expect(result.stored, `${result.name}: stored`).not.toBeNull();
          expect(result.stored?.prompt, `${result.name}: prompt`).toBe(result.question);
          expect(result.stored?.response, `${result.name}: response`).toBe(result.answer);
          expect(result.answer, `${result.name}: the fake model answered`).not.toBe('');
          expect(result.stored?.model).toBe('gpt-4o-mini');
        }
        expect(byName.get('langchain template chain')?.stored?.context).toBeUndefined();
        // The retrieved documents are context: as documents (a traced retriever) or as the context
        // variable that wrapped the question (Traceloop records no retriever runs).
        const context = byName.get('langchain rag chain')?.stored?.context?.join('\n\n');
        expect(context).toBe(
          'OpenTelemetry is a CNCF observability framework.\n\nIt collects traces, metrics and logs from applications.',
        );
      },
      RUN_TIMEOUT_MS + 10_000,
    );
  },
);

describe('the official OpenAI instrumentation through NodeSDK (examples/nodesdk-openai)', () => {
  it.each(['main.mjs', 'main.cjs'])(
    '%s: prompts and responses recorded, content joined from log records',
    async (entry) => {
      const run = await runNode(entry, { cwd: EXAMPLE, env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const printed = printedTraces(run.stdout);
      const { sent, answered } = conversationLines(run.stdout);
      expect(sent).toHaveLength(2);
      expect(printed.map((t) => t.prompt).sort()).toEqual(sent.map(oneLine).sort());
      expect(printed.map((t) => t.response).sort()).toEqual(answered.map(oneLine).sort());
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  // Each printed nothing at all before issue 27, unless OTEL_LOG_LEVEL was set.
  it.each([
    ['no-log-processors', 'no LoggerProvider is registered', 'registerAqm()'],
    [
      'default-logs',
      'the registered LoggerProvider has no AqmLogRecordProcessor',
      'call `registerAqm()` after `sdk.start()`',
    ],
    ['capture-off', 'content capture is off', 'captureMessageContent: true'],
  ])(
    '%s: records go out empty, and stderr says why and how to fix it, once, with no logging set up',
    async (name, cause, fix) => {
      const run = await runNode('nodesdk-content-lost.cjs', {
        cwd: FIXTURE,
        env: cleanEnv({ CASE: name, OTEL_LOG_LEVEL: '' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(0);
      const { stored } = lastJsonLine<{ stored: Array<{ prompt: string; response: string }> }>(run.stdout);
      expect(stored).toEqual([
        { prompt: '', response: '' },
        { prompt: '', response: '' },
      ]);
      const lines = run.stderr.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^@aqm\/otel: Spans of @opentelemetry\/instrumentation-openai arrive /);
      expect(lines[0]).toContain(cause);
      expect(lines[0]).toContain(fix);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    'through diag instead when the app set OTEL_LOG_LEVEL (NodeSDK then logs there)',
    async () => {
      const run = await runNode('nodesdk-content-lost.cjs', {
        cwd: FIXTURE,
        env: cleanEnv({ CASE: 'no-log-processors', OTEL_LOG_LEVEL: 'warn' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.code).toBe(0);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('instrumentation-openai'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^@aqm\/otel Spans of/); // DiagConsoleLogger: namespace, then message
      // No resource warning per trace either.
      expect(run.stderr).not.toContain('Accessing resource attributes before async attributes settled');
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it(
    "registerAqm() after sdk.start() joins NodeSDK's LoggerProvider: content recorded, NodeSDK's OTLP exports kept, nothing on stderr",
    async () => {
      const run = await runNode('nodesdk-content-lost.cjs', {
        cwd: FIXTURE,
        env: cleanEnv({ CASE: 'register-after-start', OTEL_LOG_LEVEL: '' }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const report = lastJsonLine<{
        stored: Array<{ prompt: string; response: string }>;
        otlpPosts: Record<string, number>;
        registration: { tracing: string; logs: string };
      }>(run.stdout);
      // Before issue 27: logs 'existing-provider', both records empty, and nothing said.
      expect(report.registration).toEqual({ tracing: 'added-to-provider', logs: 'added-to-provider' });
      expect(report.stored.map((t) => t.prompt).sort()).toEqual(['First question?', 'Second question?']);
      for (const trace of report.stored) expect(trace.response).toContain('deterministic answer');
      // The app's own OTLP backend still got its traces and log records.
      expect(report.otlpPosts['/v1/traces']).toBeGreaterThanOrEqual(1);
      expect(report.otlpPosts['/v1/logs']).toBeGreaterThanOrEqual(1);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
