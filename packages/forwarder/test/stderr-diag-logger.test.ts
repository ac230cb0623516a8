import { diag } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { stderrDiagLogger } from '../src/stderr-diag-logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, logger: stderrDiagLogger((text) => lines.push(text)) };
}

describe('stderrDiagLogger', () => {
  it('prints each message as one line with every control character made visible', () => {
    const { lines, logger } = capture();
    logger.warn(
      'answered 400: \u001b[31mred\u001b[0m\r\nforged line\ttab \u007f \u009b2J \u202eevil\u202c \u2066x\u2069',
    );
    expect(lines).toEqual([
      'answered 400: \\u001b[31mred\\u001b[0m\\u000d\\u000aforged line\\u0009tab \\u007f \\u009b2J ' +
        '\\u202eevil\\u202c \\u2066x\\u2069\n',
    ]);
  });

  it('keeps text that steers nothing (accents, CJK, emoji, right-to-left marks) as it is', () => {
    const { lines, logger } = capture();
    logger.error('café 日本 🙂 \u200fשלום');
    expect(lines).toEqual(['café 日本 🙂 \u200fשלום\n']);
  });

  it("joins a component logger's namespace and the arguments without formatting, escaping them too", () => {
    const { lines, logger } = capture();
    diag.setLogger(logger, { suppressOverrideMessage: true });
    try {
      diag
        .createComponentLogger({ namespace: '@aqm/forwarder' })
        .warn('application "%s"', '\u001b]0;t\u0007', {
          code: 1,
        });
    } finally {
      diag.disable();
    }
    expect(lines).toEqual(['@aqm/forwarder: application "%s" \\u001b]0;t\\u0007 { code: 1 }\n']);
  });

  it('never throws when stderr is gone', () => {
    const logger = stderrDiagLogger(() => {
      throw new Error('EPIPE');
    });
    expect(() => logger.error('lost')).not.toThrow();
  });
});
