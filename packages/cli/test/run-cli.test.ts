import { describe, expect, it } from 'vitest';
import type { CliIo } from '../src/io.js';
import { runCli } from '../src/run-cli.js';

function memoryIo(env: Record<string, string> = {}): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    out: () => out,
    err: () => err,
  };
}

describe('runCli without a service', () => {
  it('joins a suggestion onto the one error line', async () => {
    const io = memoryIo();
    expect(await runCli(['apps', 'lst'], io)).toBe(2);
    expect(io.err()).toBe("aqm: error: unknown command 'lst' (Did you mean list?). Add --help for usage.\n");
  });

  it('shows the help of a command group used without a command, as a usage error', async () => {
    const io = memoryIo();
    expect(await runCli(['apps'], io)).toBe(2);
    expect(io.err()).toMatch(/^Usage: aqm apps \[options\] \[command\]/);
  });

  it('prints the version and exits 0', async () => {
    const io = memoryIo();
    expect(await runCli(['--version'], io)).toBe(0);
    expect(io.out()).toBe('0.1.0\n');
  });

  it('prints help with the exit codes for the program and for a nested command', async () => {
    const io = memoryIo();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(io.out()).toContain('Exit codes:');
    expect(io.out()).toMatch(/apps\s/);
    const nested = memoryIo();
    expect(await runCli(['guardrails', 'evaluations', 'list', '--help'], nested)).toBe(0);
    expect(nested.out()).toContain('--since <when>');
  });

  it('exits 2 on an unknown command, option or bad value, with one error line', async () => {
    for (const argv of [
      ['nope'],
      ['apps', 'list', '--bogus'],
      ['apps', 'list', '--limit', 'ten'],
      ['traces', 'list'],
    ]) {
      const io = memoryIo({ AQM_API_KEY: 'k', AQM_BASE_URL: 'http://127.0.0.1:9/api' });
      expect(await runCli(argv, io)).toBe(2);
      expect(io.err()).toMatch(/^aqm: error: [^\n]+\. Add --help for usage\.\n$/);
    }
  });

  it('exits 2 when no key or address is configured', async () => {
    const io = memoryIo({ AQM_BASE_URL: 'http://127.0.0.1:9/api' });
    expect(await runCli(['apps', 'list'], io)).toBe(2);
    expect(io.err()).toBe('aqm: No API key: pass --api-key or set AQM_API_KEY.\n');
  });

  it('exits 2 on a bad duration before any request', async () => {
    const io = memoryIo({ AQM_API_KEY: 'k', AQM_BASE_URL: 'http://127.0.0.1:9/api' });
    expect(
      await runCli(['traces', 'list', '00000000-0000-4000-8000-000000000000', '--since', 'soon'], io),
    ).toBe(2);
    expect(io.err()).toMatch(/^aqm: --since must be a duration before now/);
  });

  it('exits 2 on an invalid base URL without showing the key', async () => {
    const io = memoryIo({ AQM_API_KEY: 'super-secret-key', AQM_BASE_URL: 'ftp://example.com' });
    expect(await runCli(['apps', 'list'], io)).toBe(2);
    expect(io.err()).toMatch(/^aqm: Invalid configuration: /);
    expect(io.err()).not.toContain('super-secret-key');
  });

  it('says plain http is for loopback only, naming no setting the CLI lacks', async () => {
    const io = memoryIo({ AQM_API_KEY: 'k', AQM_BASE_URL: 'http://aqm.internal:4000/api' });
    expect(await runCli(['apps', 'list'], io)).toBe(2);
    expect(io.err()).toBe(
      'aqm: Invalid configuration: the base URL (--base-url or AQM_BASE_URL) uses plain http to a non-loopback host (aqm.internal), which would send the API key unencrypted; use https; plain http is for loopback addresses only, got "http://aqm.internal:4000/api"\n',
    );
  });

  it('says where the key goes when the base URL carries credentials', async () => {
    const io = memoryIo({ AQM_API_KEY: 'k', AQM_BASE_URL: 'http://user:pw@127.0.0.1:4000/api' });
    expect(await runCli(['apps', 'list'], io)).toBe(2);
    expect(io.err()).toMatch(/must not contain credentials; pass the key with --api-key or AQM_API_KEY, got/);
    expect(io.err()).not.toContain('apiKey');
  });
});
