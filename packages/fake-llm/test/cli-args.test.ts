import { describe, expect, it } from 'vitest';
import { FakeLlmCliError, parseFakeLlmArgs } from '../src/cli-args.js';

describe('parseFakeLlmArgs', () => {
  it('defaults to port 0 on 127.0.0.1 without delay', () => {
    expect(parseFakeLlmArgs([])).toEqual({
      kind: 'run',
      options: { port: 0, host: '127.0.0.1', chunkDelayMs: 0 },
    });
  });

  it('reads --port, --host, --chunk-delay-ms (after a leading --)', () => {
    expect(parseFakeLlmArgs(['--', '--port', '8080', '--host', '::1', '--chunk-delay-ms', '5'])).toEqual({
      kind: 'run',
      options: { port: 8080, host: '::1', chunkDelayMs: 5 },
    });
    expect(parseFakeLlmArgs(['-h'])).toEqual({ kind: 'help' });
  });

  it('names the flag and the value on bad input', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--port', 'abc'], /--port must be an integer from 0 to 65535, got "abc"/],
      [['--port', '70000'], /--port .* got "70000"/],
      [['--host', ''], /--host must be a non-empty/],
      [['--chunk-delay-ms=-1'], /--chunk-delay-ms must be a number >= 0, got "-1"/],
      [['--verbose'], /verbose/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseFakeLlmArgs(argv)).toThrow(FakeLlmCliError);
      expect(() => parseFakeLlmArgs(argv)).toThrow(message);
    }
  });
});
