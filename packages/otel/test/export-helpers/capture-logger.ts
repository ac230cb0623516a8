import type { DiagLogger } from '@opentelemetry/api';

/** One captured diag message. */
export interface LogLine {
  level: 'error' | 'warn' | 'info' | 'debug' | 'verbose';
  message: string;
}

/** A DiagLogger that keeps every message, for assertions. */
export class CaptureLogger implements DiagLogger {
  readonly lines: LogLine[] = [];

  error(message: string, ...args: unknown[]): void {
    this.#push('error', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.#push('warn', message, args);
  }
  info(message: string, ...args: unknown[]): void {
    this.#push('info', message, args);
  }
  debug(message: string, ...args: unknown[]): void {
    this.#push('debug', message, args);
  }
  verbose(message: string, ...args: unknown[]): void {
    this.#push('verbose', message, args);
  }

  /** Messages of one level. */
  at(level: LogLine['level']): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }

  /** Every message as one text (to check that something never appears). */
  get text(): string {
    return this.lines.map((line) => line.message).join('\n');
  }

  #push(level: LogLine['level'], message: string, args: unknown[]): void {
    this.lines.push({ level, message: [message, ...args.map(String)].join(' ') });
  }
}
