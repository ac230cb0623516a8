import { FakeListChatModel } from '@langchain/core/utils/testing';
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR, setupTracing } from './helpers/tracing.js';

const chain = (name: string) => ({ lc: 1, type: 'not_implemented' as const, id: ['chains', name] });

function captureWarnings(): string[] {
  const warnings: string[] = [];
  const logger: DiagLogger = {
    error: () => {},
    warn: (message, ...args) => warnings.push([message, ...args].join(' ')),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return warnings;
}

afterEach(() => {
  diag.disable();
  vi.useRealTimers();
});

describe('open runs are bounded', () => {
  it('past maxOpenRuns the oldest open run is ended as an error "run never ended"', () => {
    const warnings = captureWarnings();
    const t = setupTracing({ maxOpenRuns: 3 });
    for (let i = 1; i <= 5; i++) t.handler.handleChainStart(chain(`c${i}`), { input: `i${i}` }, `run-${i}`);
    expect(t.handler.openRunCount).toBe(3);
    const evicted = t.spans();
    expect(evicted.map((s) => s.name)).toEqual(['invoke_workflow c1', 'invoke_workflow c2']);
    for (const span of evicted) {
      expect(span.status).toEqual({ code: ERROR, message: 'run never ended' });
      expect(span.attributes['error.type']).toBe('run_never_ended');
    }
    expect(warnings.join('\n')).toContain('maxOpenRuns');

    // A late end of an evicted run is ignored; runs still open end normally.
    t.handler.handleChainEnd({ output: 'late' }, 'run-1');
    t.handler.handleChainEnd({ output: 'ok' }, 'run-5');
    expect(t.spans().map((s) => s.name)).toEqual([
      'invoke_workflow c1',
      'invoke_workflow c2',
      'invoke_workflow c5',
    ]);
    expect(t.span('invoke_workflow c5').status.code).not.toBe(ERROR);
    expect(t.handler.openRunCount).toBe(2);
  });

  it('a run older than maxRunAgeMs is ended when the next run starts', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    const warnings = captureWarnings();
    const t = setupTracing({ maxRunAgeMs: 60_000 });
    t.handler.handleChainStart(chain('stale'), { input: 'x' }, 'stale-run');
    vi.setSystemTime(new Date('2025-01-01T00:00:30Z'));
    t.handler.handleChainStart(chain('young'), { input: 'x' }, 'young-run');
    vi.setSystemTime(new Date('2025-01-01T00:01:00Z'));
    t.handler.handleChainStart(chain('probe1'), { input: 'x' }, 'probe-1');
    // Exactly at the limit: still open.
    expect(t.spans()).toHaveLength(0);
    vi.setSystemTime(new Date('2025-01-01T00:01:00.001Z'));
    t.handler.handleChainStart(chain('probe2'), { input: 'x' }, 'probe-2');
    expect(t.spans().map((s) => s.name)).toEqual(['invoke_workflow stale']);
    expect(t.span('invoke_workflow stale').status).toEqual({ code: ERROR, message: 'run never ended' });
    expect(t.handler.openRunCount).toBe(3);
    expect(warnings.join('\n')).toContain('maxRunAgeMs');
  });

  it('a stream the consumer stops reading leaves a run that the age limit ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    captureWarnings();
    const t = setupTracing({ maxRunAgeMs: 1000 });
    const model = new FakeListChatModel({ responses: ['A long streamed answer'] });
    for await (const _chunk of await model.stream('hi', { callbacks: [t.handler] })) break;
    expect(t.handler.openRunCount).toBe(1);
    expect(t.spans()).toHaveLength(0);

    vi.setSystemTime(new Date('2025-01-01T00:00:02Z'));
    await new FakeListChatModel({ responses: ['next'] }).invoke('next', { callbacks: [t.handler] });
    const [abandoned, next] = t.spans();
    expect(abandoned?.status).toEqual({ code: ERROR, message: 'run never ended' });
    expect(next?.status.code).not.toBe(ERROR);
    expect(t.handler.openRunCount).toBe(0);
  });
});
