import { diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { ForwarderDebug } from '../src/forwarder-debug.js';
import { resolveForwarderOptions } from '../src/resolve-options.js';
import { stderrDiagLogger } from '../src/stderr-diag-logger.js';

const KEY = 'aqm_fwd_0123456789SECRET';
const TOKEN = 'ingest-token-SECRET-42';
const ENV = {
  AQM_API_KEY: KEY,
  AQM_BASE_URL: 'http://127.0.0.1:4000/api',
  AQM_APPLICATION_ID: '00000000-0000-4000-8000-000000000000',
};

describe('the forwarder debug switch', () => {
  it('--debug sets `debug`; so do AQM_DEBUG=1 and OTEL_LOG_LEVEL=debug; off otherwise', () => {
    expect(parseCliArgs(['--debug'])).toEqual({ kind: 'run', options: { debug: true } });
    expect(resolveForwarderOptions({}, ENV).debug).toBe(false);
    expect(resolveForwarderOptions({ debug: true }, ENV).debug).toBe(true);
    expect(resolveForwarderOptions({}, { ...ENV, AQM_DEBUG: '1' }).debug).toBe(true);
    expect(resolveForwarderOptions({}, { ...ENV, OTEL_LOG_LEVEL: 'debug' }).debug).toBe(true);
    expect(resolveForwarderOptions({ debug: false }, { ...ENV, AQM_DEBUG: '1' }).debug).toBe(false);
    // Not a pipeline option: it does not reach @aqm/otel's option check.
    expect('debug' in resolveForwarderOptions({ debug: true }, ENV).pipelineOptions).toBe(false);
  });

  it('the config line redacts the key and the ingest tokens', () => {
    const lines: string[] = [];
    const resolved = resolveForwarderOptions({ ingestTokens: [TOKEN] }, ENV);
    new ForwarderDebug((line) => lines.push(line)).config(resolved, 'http://127.0.0.1:4318');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^config: forwarder listening on http:\/\/127\.0\.0\.1:4318 endpoint=http:\/\/127\.0\.0\.1:4000\/api apiKey=set \(redacted\) application=00000000-0000-4000-8000-000000000000 /,
    );
    expect(lines[0]).toContain('ingestTokens=1 set (redacted)');
    expect(lines[0]).not.toContain(KEY);
    expect(lines[0]).not.toContain(TOKEN);
  });

  it('per request: what came, for which application, admitted or refused, with names made visible', () => {
    const lines: string[] = [];
    const debug = new ForwarderDebug((line) => lines.push(line));
    debug.group('span', 3, 1, 'app-1', { admitted: true });
    debug.group('span', 2, 2, '(none)', { admitted: false, reason: 'they name "\u001b[31mx"' });
    debug.request('POST /v1/traces', 'span', 5, 900, {
      accepted: 3,
      rejected: 2,
      errorMessage: '2 span(s) refused',
      retryLater: false,
    });
    expect(lines).toEqual([
      '3 span(s) of 1 trace(s) for application app-1: admitted',
      '2 span(s) of 2 trace(s) for application (none): refused (they name "\\u001b[31mx")',
      'POST /v1/traces: received 5 span(s), 900 bytes; 3 accepted, 2 rejected: 2 span(s) refused',
    ]);
  });

  it('names the gRPC receiver in the config line and gRPC requests by their method', () => {
    const lines: string[] = [];
    const debug = new ForwarderDebug((line) => lines.push(line));
    const resolved = resolveForwarderOptions(
      { grpcPort: 0, grpcTlsCertFile: 'c.pem', grpcTlsKeyFile: 'k.pem', grpcTlsCaFile: 'ca.pem' },
      ENV,
    );
    debug.config(resolveForwarderOptions({}, ENV), 'http://127.0.0.1:4318');
    debug.config(resolved, 'http://127.0.0.1:4318', 'https://127.0.0.1:4317');
    const path = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
    debug.request(`gRPC ${path}`, 'span', 1, 90, {
      accepted: 0,
      rejected: 1,
      errorMessage: '1 span(s) refused for now',
      retryLater: true,
    });
    expect(lines[0]).toMatch(/ grpc=off$/);
    expect(lines[1]).toMatch(/ grpc=https:\/\/127\.0\.0\.1:4317 \(client certificates required\)$/);
    expect(lines[2]).toBe(
      `gRPC ${path}: received 1 span(s), 90 bytes; answered UNAVAILABLE (retry later): 1 span(s) refused for now`,
    );
  });

  it('the stderr logger marks debug lines', () => {
    const lines: string[] = [];
    const logger = stderrDiagLogger((text) => lines.push(text));
    diag.setLogger(logger, { suppressOverrideMessage: true, logLevel: 70 });
    try {
      diag.createComponentLogger({ namespace: '@aqm/forwarder' }).debug('trace t sent');
      diag.createComponentLogger({ namespace: '@aqm/forwarder' }).warn('a warning');
    } finally {
      diag.disable();
    }
    // (The API's own lines, about registering the logger, are left out.)
    expect(lines.filter((line) => line.startsWith('@aqm/'))).toEqual([
      '@aqm/forwarder debug: trace t sent\n',
      '@aqm/forwarder: a warning\n',
    ]);
  });
});
