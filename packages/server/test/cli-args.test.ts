import { describe, expect, it } from 'vitest';
import { CliUsageError, DEFAULT_CLI_PORT, DEFAULT_PROJECT, parseCliArgs } from '../src/cli-args.js';

describe('parseCliArgs', () => {
  it('defaults: port, no faults, and a generated development key', () => {
    const command = parseCliArgs([]);
    if (command.kind !== 'run') throw new Error('expected run');
    expect(command.options.port).toBe(DEFAULT_CLI_PORT);
    expect(command.options.faults).toBeUndefined();
    expect(command.generatedKey?.projectId).toBe(DEFAULT_PROJECT);
    expect(command.generatedKey?.key).toMatch(/^aqm_dev_[0-9a-f]{32}$/);
    expect(command.options.apiKeys).toEqual([command.generatedKey]);
  });

  it('reads every option', () => {
    const command = parseCliArgs([
      '--port=8123',
      '--host',
      '0.0.0.0',
      '--prefix',
      '/v1',
      '--api-key',
      'k1:proj',
      '--api-key',
      'k2',
      '--data-dir',
      '/tmp/x',
      '--log',
      '--max-requests-in-progress',
      '4',
      '--application',
      ' support-bot ',
    ]);
    expect(command).toEqual({
      kind: 'run',
      generatedKey: undefined,
      application: 'support-bot',
      options: {
        port: 8123,
        host: '0.0.0.0',
        prefix: '/v1',
        dataDir: '/tmp/x',
        logger: true,
        maxRequestsInProgress: 4,
        apiKeys: [
          { key: 'k1', projectId: 'proj' },
          { key: 'k2', projectId: DEFAULT_PROJECT },
        ],
      },
    });
  });

  it('builds one fault rule, or one per --fault-route', () => {
    const one = parseCliArgs([
      '--api-key',
      'k',
      '--fault-status',
      '503',
      '--fault-rate',
      '0.25',
      '--fault-seed',
      '9',
    ]);
    expect(one.kind === 'run' && one.options.faults).toEqual({
      seed: 9,
      rules: [{ status: 503, rate: 0.25 }],
    });
    const perRoute = parseCliArgs([
      '--api-key',
      'k',
      '--fault-route',
      'widgets.list',
      '--fault-route',
      'evaluations.submit',
      '--fault-hang',
      '--fault-latency-ms',
      '20',
    ]);
    expect(perRoute.kind === 'run' && perRoute.options.faults).toEqual({
      rules: [
        { hang: true, latencyMs: 20, route: 'widgets.list' },
        { hang: true, latencyMs: 20, route: 'evaluations.submit' },
      ],
    });
    const dated = parseCliArgs([
      '--api-key',
      'k',
      '--fault-status',
      '429',
      '--fault-retry-after',
      'Wed, 21 Oct 2026 07:28:00 GMT',
    ]);
    expect(dated.kind === 'run' && dated.options.faults?.rules[0]?.retryAfter).toBe(
      'Wed, 21 Oct 2026 07:28:00 GMT',
    );
    const seconds = parseCliArgs(['--api-key', 'k', '--fault-status', '429', '--fault-retry-after', '5']);
    expect(seconds.kind === 'run' && seconds.options.faults?.rules[0]).toEqual({
      status: 429,
      retryAfter: 5,
    });
    const reset = parseCliArgs(['--api-key', 'k', '--fault-reset']);
    expect(reset.kind === 'run' && reset.options.faults?.rules[0]).toEqual({ reset: true });
  });

  it('ignores a leading -- (as `pnpm run server -- --port 0` passes it)', () => {
    const command = parseCliArgs(['--', '--port', '0', '--api-key', 'k']);
    expect(command.kind === 'run' && command.options.port).toBe(0);
  });

  it("ignores the -- that `pnpm start -- --port 0` passes after the script's own flags", () => {
    const command = parseCliArgs(['--application', 'support-bot', '--', '--port', '0']);
    expect(command.kind === 'run' && [command.options.port, command.application]).toEqual([0, 'support-bot']);
  });

  it('answers help', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--port', '80x'], '--port must be an integer, got "80x"'],
    [['--fault-rate', 'half'], '--fault-rate must be a number, got "half"'],
    [['--fault-seed', '1.5', '--fault-status', '500'], '--fault-seed must be an integer, got "1.5"'],
    [['--api-key', 'has space'], '--api-key #1 must be KEY or KEY:PROJECT'],
    [['--api-key', 'k:'], '--api-key #1 has an empty PROJECT'],
    [['extra'], 'Unexpected argument'],
    [['--nope'], "Unknown option '--nope'"],
    [['--application', ''], '--application must be a name of 1 to 100 characters, got ""'],
    [['--application', 'x'.repeat(101)], '--application must be a name of 1 to 100 characters'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it('never echoes a key in an error', () => {
    expect(() => parseCliArgs(['--api-key', 'very secret'])).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('very secret') }),
    );
  });
});

describe('parseCliArgs: values startServer would refuse', () => {
  it.each([
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got 70000'],
    [['--prefix', 'api'], "--prefix must be '' or a path like '/api'"],
    [['--fault-rate', '2', '--fault-status', '503'], '--fault-rate must be a number from 0 to 1, got 2'],
    [['--fault-status', '200'], '--fault-status must be an integer from 400 to 599, got 200'],
    [['--fault-route', 'nope', '--fault-hang'], '--fault-route must be a route name'],
    [['--fault-retry-after', '5'], '--fault-retry-after needs a --fault-status to answer with'],
    [
      ['--fault-status', '503', '--fault-reset'],
      'the --fault-* flags must have at most one of --fault-status, --fault-reset, --fault-hang',
    ],
    [['--fault-rate', '0.5'], 'the --fault-* flags must have an effect'],
    [
      ['--max-requests-in-progress', '0'],
      '--max-requests-in-progress must be an integer from 1 to 10000, got 0',
    ],
    [['--api-key', 'k', '--api-key', 'k'], '--api-key #2 is the same key as --api-key #1'],
  ])('exits as a usage error naming the flag: %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});
