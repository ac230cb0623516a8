import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ExitProcess, installExitFlush } from '../src/setup/exit-flush.js';

/** A process stand-in: real listeners, and `kill` recorded instead of sent. */
class FakeProcess extends EventEmitter {
  readonly pid = 4242;
  readonly kills: Array<[number, string]> = [];
  kill(pid: number, signal: string): true {
    this.kills.push([pid, signal]);
    return true;
  }
  get asProcess(): ExitProcess {
    return this as unknown as ExitProcess;
  }
}

/** A flush or shutdown the test settles by hand, counting its calls. */
function controllable() {
  const calls: Array<() => void> = [];
  const run = vi.fn(
    (_timeoutMs?: number) =>
      new Promise<void>((resolve) => {
        calls.push(resolve);
      }),
  );
  return { run, finish: () => calls.shift()?.() };
}

let proc: FakeProcess;
let flush: ReturnType<typeof controllable>;
let shutdown: ReturnType<typeof controllable>;
let uninstall: () => void;
let pending: boolean;

beforeEach(() => {
  vi.useFakeTimers();
  proc = new FakeProcess();
  flush = controllable();
  shutdown = controllable();
  pending = true;
  uninstall = installExitFlush({
    flush: flush.run,
    shutdown: shutdown.run,
    hasPending: () => pending,
    timeoutMs: 5000,
    process: proc.asProcess,
  });
});
afterEach(() => {
  uninstall();
  vi.useRealTimers();
});

describe('installExitFlush', () => {
  it('beforeExit with traces held: flushes (one flush at a time), and tracing goes on', async () => {
    proc.emit('beforeExit', 0);
    proc.emit('beforeExit', 0); // again, while the flush runs
    expect(flush.run).toHaveBeenCalledTimes(1);
    pending = false; // delivered
    flush.finish();
    await vi.advanceTimersByTimeAsync(0);
    proc.emit('beforeExit', 0); // the loop ran dry again, nothing held: the process may exit
    expect(flush.run).toHaveBeenCalledTimes(1);
    expect(shutdown.run).not.toHaveBeenCalled();
    expect(proc.listenerCount('beforeExit')).toBe(1);
    expect(proc.kills).toEqual([]);
  });

  it('beforeExit with nothing held does nothing at all', () => {
    pending = false;
    for (let i = 0; i < 100; i++) proc.emit('beforeExit', 0);
    expect(flush.run).not.toHaveBeenCalled();
    expect(shutdown.run).not.toHaveBeenCalled();
  });

  it('a beforeExit flush that outlasts the bound less its last share shuts down within that share: the whole hold is the bound', async () => {
    proc.emit('beforeExit', 0);
    // 5000 ms in all: the flush gets 4000, the shutdown the last 1000 (a quarter, at most 1 s).
    await vi.advanceTimersByTimeAsync(3999);
    expect(shutdown.run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(shutdown.run).toHaveBeenCalledTimes(1);
    // Nothing more to wait for: it gives up at once and has the last 1000 ms to write to disk.
    expect(shutdown.run).toHaveBeenCalledWith(1);
    expect(proc.eventNames()).toEqual([]);
    proc.emit('beforeExit', 0);
    expect(flush.run).toHaveBeenCalledTimes(1);
  });

  it('a flush that returns with traces still queued (its own bound, or a 401) shuts down within what is left, rather than flushing again at every beforeExit', async () => {
    proc.emit('beforeExit', 0);
    await vi.advanceTimersByTimeAsync(1500);
    flush.finish(); // still pending: not delivered
    await vi.advanceTimersByTimeAsync(0);
    expect(shutdown.run).toHaveBeenCalledTimes(1);
    expect(shutdown.run).toHaveBeenCalledWith(2500); // 3500 ms left, less the last 1000
    expect(proc.eventNames()).toEqual([]);
  });

  it('after a flush, open traces alone (the app still running) do not shut tracing down', async () => {
    uninstall();
    let queued = true;
    uninstall = installExitFlush({
      flush: flush.run,
      shutdown: shutdown.run,
      hasPending: () => true, // open traces: spans of work still going on
      hasQueued: () => queued,
      timeoutMs: 5000,
      process: proc.asProcess,
    });
    proc.emit('beforeExit', 0);
    queued = false;
    flush.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(shutdown.run).not.toHaveBeenCalled();
    expect(proc.listenerCount('beforeExit')).toBe(1);
  });

  it('a hasPending that throws counts as nothing held', () => {
    uninstall();
    uninstall = installExitFlush({
      flush: flush.run,
      shutdown: shutdown.run,
      hasPending: () => {
        throw new Error('stats failed');
      },
      timeoutMs: 5000,
      process: proc.asProcess,
    });
    proc.emit('beforeExit', 0);
    expect(flush.run).not.toHaveBeenCalled();
  });

  it('a signal with no listener of the app: shuts down, then removes itself and raises the signal again', async () => {
    proc.emit('SIGTERM', 'SIGTERM');
    expect(shutdown.run).toHaveBeenCalledTimes(1);
    expect(shutdown.run).toHaveBeenCalledWith(4000); // the last 1000 ms for the disk
    await vi.advanceTimersByTimeAsync(100);
    expect(proc.kills).toEqual([]); // still flushing: the process is held

    shutdown.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(proc.kills).toEqual([[4242, 'SIGTERM']]);
    expect(
      proc.listenerCount('SIGTERM') + proc.listenerCount('SIGINT') + proc.listenerCount('beforeExit'),
    ).toBe(0);
  });

  it('a flush that never ends holds the process for timeoutMs at most, then the signal is raised', async () => {
    proc.emit('SIGINT', 'SIGINT');
    await vi.advanceTimersByTimeAsync(4999);
    expect(proc.kills).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(proc.kills).toEqual([[4242, 'SIGINT']]);
  });

  it('a second signal while flushing ends the process at once', async () => {
    proc.emit('SIGINT', 'SIGINT');
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.kills).toEqual([[4242, 'SIGINT']]);
    expect(shutdown.run).toHaveBeenCalledTimes(1);
  });

  it("when the app listens too: only flushes, lets the app's listener run, and never raises the signal", async () => {
    const appListener = vi.fn();
    proc.on('SIGTERM', appListener);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(appListener).toHaveBeenCalledTimes(1);
    expect(flush.run).toHaveBeenCalledTimes(1);
    expect(shutdown.run).not.toHaveBeenCalled();
    pending = false; // delivered
    flush.finish();
    await vi.runAllTimersAsync();
    expect(shutdown.run).not.toHaveBeenCalled();
    expect(proc.kills).toEqual([]);
    expect(proc.listenerCount('SIGTERM')).toBe(2); // tracing goes on: the app may keep running
  });

  it('when the app listens and the flush outlasts the bound: shuts down, so retries never hold the process', async () => {
    proc.on('SIGTERM', () => {});
    proc.emit('SIGTERM', 'SIGTERM');
    await vi.advanceTimersByTimeAsync(3999);
    expect(shutdown.run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(shutdown.run).toHaveBeenCalledTimes(1);
    expect(proc.kills).toEqual([]);
    expect(proc.listenerCount('SIGTERM')).toBe(1); // only the app's is left
  });

  it('a flush or shutdown that throws or rejects is swallowed: the signal is still raised', async () => {
    uninstall();
    uninstall = installExitFlush({
      flush: () => Promise.reject(new Error('flush failed')),
      shutdown: () => {
        throw new Error('shutdown failed');
      },
      hasPending: () => true,
      timeoutMs: 5000,
      process: proc.asProcess,
    });
    proc.emit('SIGTERM', 'SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(proc.kills).toEqual([[4242, 'SIGTERM']]);
  });

  it('uninstall removes every listener it added', () => {
    uninstall();
    expect(proc.eventNames()).toEqual([]);
  });

  it('with signals: false (registerAqm), leaves SIGINT and SIGTERM to the app and still flushes at beforeExit', async () => {
    uninstall();
    uninstall = installExitFlush({
      flush: flush.run,
      shutdown: shutdown.run,
      hasPending: () => pending,
      timeoutMs: 5000,
      signals: false,
      process: proc.asProcess,
    });
    expect(proc.eventNames()).toEqual(['beforeExit']);
    proc.emit('beforeExit', 0);
    expect(flush.run).toHaveBeenCalledTimes(1);
    pending = false; // delivered
    flush.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(shutdown.run).not.toHaveBeenCalled();
  });
});
