import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';

/** One diag message and its level. */
export interface DiagLine {
  level: 'error' | 'warn' | 'info' | 'debug' | 'verbose';
  message: string;
}

/** A `DiagLogger` that keeps every message, installed as OpenTelemetry's global diag logger. */
export class DiagCapture implements DiagLogger {
  readonly lines: DiagLine[] = [];

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
  at(level: DiagLine['level']): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }

  /** Every message as one text, to check that something never appears. */
  get text(): string {
    return this.lines.map((line) => line.message).join('\n');
  }

  #push(level: DiagLine['level'], message: string, args: unknown[]): void {
    this.lines.push({ level, message: [message, ...args.map(String)].join(' ') });
  }
}

/** Routes OpenTelemetry's `diag` (where `@aqm/otel` reports) into a fresh capture; `diag.disable()` undoes it. */
export function captureDiag(): DiagCapture {
  const capture = new DiagCapture();
  diag.setLogger(capture, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
  return capture;
}
