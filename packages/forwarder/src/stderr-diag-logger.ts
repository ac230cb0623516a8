import { inspect } from 'node:util';
import { printableLine } from '@aqm/wire';
import type { DiagLogger } from '@opentelemetry/api';

type Write = (line: string) => void;

/** A component logger's namespace (`diag.createComponentLogger`), which it passes as the message. */
const NAMESPACE = /^@[\w.-]+\/[\w.-]+$/;

function line(message: string, args: unknown[], debug: boolean): string {
  // Joined as `console` would show them, but not formatted: a `%s` in a sender's text must not
  // pick up the next argument.
  const parts = args.map((part) => (typeof part === 'string' ? part : inspect(part)));
  // `@aqm/forwarder: text`, as the bin's own lines (`aqm-forwarder: ...`) and @aqm/otel's read;
  // debug lines (`--debug`) say so: `@aqm/forwarder debug: text`.
  const marker = debug ? ' debug' : '';
  const text =
    NAMESPACE.test(message) && parts.length > 0
      ? `${message}${marker}: ${parts.join(' ')}`
      : `${debug ? 'debug: ' : ''}${[message, ...parts].join(' ')}`;
  return `${printableLine(text)}\n`;
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
  const printer =
    (debug: boolean) =>
    (message: string, ...args: unknown[]): void => {
      try {
        write(line(message, args, debug));
      } catch {
        // A closed stderr must not stop the forwarder.
      }
    };
  const print = printer(false);
  const printDebug = printer(true);
  return { error: print, warn: print, info: print, debug: printDebug, verbose: printDebug };
}
