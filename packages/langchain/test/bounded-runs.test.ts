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

  it('a handler that goes quiet: a sweep timer ends runs past maxRunAgeMs with no new run, and stops once none is open', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    const warnings = captureWarnings();
    const t = setupTracing({ maxRunAgeMs: 60_000 }); // swept every 30 s while runs are open
    expect(vi.getTimerCount()).toBe(0);
    t.handler.handleChainStart(chain('stale'), { input: 'x' }, 'stale-run');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(45_000);
    t.handler.handleChainStart(chain('young'), { input: 'x' }, 'young-run');
    expect(vi.getTimerCount()).toBe(1); // one timer per handler, not one per run

    // Sweep at 1:00: the stale run is exactly at the limit, so still open.
    vi.advanceTimersByTime(15_000);
    expect(t.spans()).toHaveLength(0);
    // Sweep at 1:30, no run started since 0:45: the stale run (90 s) is ended as the check at a run
    // start would have ended it; the young one (45 s) stays open.
    vi.advanceTimersByTime(30_000);
    expect(t.spans().map((s) => s.name)).toEqual(['invoke_workflow stale']);
    expect(t.span('invoke_workflow stale').status).toEqual({ code: ERROR, message: 'run never ended' });
    expect(t.span('invoke_workflow stale').attributes['error.type']).toBe('run_never_ended');
    expect(warnings.join('\n')).toContain('maxRunAgeMs');
    expect(t.handler.openRunCount).toBe(1);
    expect(vi.getTimerCount()).toBe(1);

    // The last open run ends normally: the timer is cleared, nothing is left to sweep.
    t.handler.handleChainEnd({ output: 'ok' }, 'young-run');
    expect(t.span('invoke_workflow young').status.code).not.toBe(ERROR);
    expect(t.handler.openRunCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the sweep timer never keeps the process alive (unref), and a run evicted by the timer clears it', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    captureWarnings();
    const unref = vi.fn();
    const realSetInterval = globalThis.setInterval;
    const spy = vi.spyOn(globalThis, 'setInterval').mockImplementation(((
      ...args: Parameters<typeof setInterval>
    ) => {
      const timer = realSetInterval(...args);
      const original = timer.unref.bind(timer);
      timer.unref = () => {
        unref();
        return original();
      };
      return timer;
    }) as typeof setInterval);
    try {
      const t = setupTracing({ maxRunAgeMs: 1 }); // a tiny limit: swept every second, not every millisecond
      t.handler.handleChainStart(chain('abandoned'), { input: 'x' }, 'abandoned-run');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]?.[1]).toBe(1000);
      expect(unref).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1000);
      expect(t.span('invoke_workflow abandoned').status).toEqual({ code: ERROR, message: 'run never ended' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      spy.mockRestore();
    }
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
