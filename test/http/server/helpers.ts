import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { EvaluationTrace } from '@aqm/wire';

/** An answer of the service: status, headers and the parsed JSON body (or the raw text). */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies.
  body: any;
}

/** How to send a request: a JSON body, a raw body, a key (or none) and extra headers. */
export interface Send {
  json?: unknown;
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

/** A fetch wrapper bound to a base URL and a default key, for black-box tests. */
export function caller(baseUrl: string, defaultKey: string) {
  return async (method: string, path: string, send: Send = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...send.headers };
    const key = send.key === undefined ? defaultKey : send.key;
    if (key !== null) headers['x-api-key'] = key;
    let body: string | undefined;
    if (send.json !== undefined) {
      body = JSON.stringify(send.json);
      headers['content-type'] ??= 'application/json';
    } else if (send.raw !== undefined) {
      body = send.raw;
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Non-JSON bodies stay text, so a test can show what came back.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

/** A random 32-hex trace id. */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** A submitted trace starting at `start` (Date or ISO) and lasting `durationMs`. */
export function makeTrace(
  start: Date | string,
  durationMs: number,
  overrides: Partial<EvaluationTrace> = {},
): EvaluationTrace {
  const startMs = typeof start === 'string' ? Date.parse(start) : start.getTime();
  return {
    traceId: newTraceId(),
    prompt: 'What is the capital of France?',
    response: 'The capital of France is Paris.',
    startTime: new Date(startMs).toISOString(),
    endTime: new Date(startMs + durationMs).toISOString(),
    status: 'success',
    ...overrides,
  };
}

/** A unique application name, so tests sharing a server never collide. */
export function uniqueName(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * Sends `head` and a body that never ends on a raw socket, and resolves with what the server
 * wrote before it closed the connection: only the server's request timeout can close it.
 */
export function neverEndingBody(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n5\r\n{"nam`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
