import { inspect } from 'node:util';
import { printableLine } from '@aqm/wire';
import type { DiagLogger } from '@opentelemetry/api';

type Write = (line: string) => void;

function line(message: string, args: unknown[]): string {
  // Joined as `console` would show them, but not formatted: a `%s` in a sender's text must not
  // pick up the next argument.
  const parts = [message, ...args].map((part) => (typeof part === 'string' ? part : inspect(part)));
  return `${printableLine(parts.join(' '))}\n`;
}

/**
 * The `diag` logger of `aqm-forwarder`: each message on stderr as one line with its control
 * characters made visible ({@link printableLine}). Messages quote the service (error bodies) and
 * senders (resource and application names), so `DiagConsoleLogger` would let an escape sequence
 * in them reach the operator's terminal, and a line break in them forge a log line.
 *
 * @example
 * diag.setLogger(stderrDiagLogger(), { logLevel: DiagLogLevel.WARN });
 */
export function stderrDiagLogger(write: Write = (text) => process.stderr.write(text)): DiagLogger {
  const print = (message: string, ...args: unknown[]): void => {
    try {
      write(line(message, args));
    } catch {
      // A closed stderr must not stop the forwarder.
    }
  };
  return { error: print, warn: print, info: print, debug: print, verbose: print };
}
