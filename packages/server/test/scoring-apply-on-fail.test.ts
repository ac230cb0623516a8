import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/scoring/findings.js';
import { applyOnFail, filterFindings, maskFindings } from '../src/scoring/guardrails/apply-on-fail.js';

/** Findings at each occurrence of the given substrings. */
function at(text: string, ...parts: Array<[string, string]>): Finding[] {
  return parts.map(([part, entity]) => {
    const start = text.indexOf(part);
    if (start < 0) throw new Error(`"${part}" is not in the text`);
    return { start, end: start + part.length, entity, weight: 1 };
  });
}

describe('maskFindings', () => {
  it('replaces each finding with its entity in angle brackets, whatever the order given', () => {
    const text = 'Mail ann@example.com or call 555-123-4567 now.';
    const findings = at(text, ['555-123-4567', 'PHONE_NUMBER'], ['ann@example.com', 'EMAIL_ADDRESS']);
    expect(maskFindings(text, findings)).toBe('Mail [EMAIL] or call [PHONE] now.');
  });

  it('masks overlapping findings once, as the longest', () => {
    const text = 'id 1234 5678 9012 end';
    const findings = at(text, ['1234 5678', 'PHONE_NUMBER'], ['1234 5678 9012', 'CREDIT_CARD']);
    expect(maskFindings(text, findings)).toBe('id [CARD] end');
  });

  it('handles findings at both ends, adjacent ones and unicode text', () => {
    const text = 'ＡＢ✓ café ann@x.io';
    expect(maskFindings(text, at(text, ['ＡＢ', 'A'], ['✓', 'B'], ['ann@x.io', 'C']))).toBe(
      '[A][B] café [C]',
    );
    expect(maskFindings('', [])).toBe('');
  });
});

describe('filterFindings', () => {
  it('removes each finding and the blank it leaves doubled', () => {
    const text = 'Mail ann@example.com or call 555-123-4567 now.';
    const findings = at(text, ['ann@example.com', 'EMAIL_ADDRESS'], ['555-123-4567', 'PHONE_NUMBER']);
    expect(filterFindings(text, findings)).toBe('Mail or call now.');
  });

  it('tidies blanks at the start, the end and before punctuation', () => {
    const text = 'ann@x.io is mine, not bob@y.io';
    expect(filterFindings(text, at(text, ['ann@x.io', 'E'], ['bob@y.io', 'E']))).toBe('is mine, not');
    const punctuated = 'Write to ann@x.io, please.';
    expect(filterFindings(punctuated, at(punctuated, ['ann@x.io', 'E']))).toBe('Write to, please.');
  });

  it('keeps line breaks and text that touches the finding', () => {
    const text = 'key:\nSECRET\nend (SECRET)';
    expect(
      filterFindings(text, [
        ...at(text, ['SECRET', 'S']),
        { start: text.lastIndexOf('SECRET'), end: text.lastIndexOf('SECRET') + 6, entity: 'S', weight: 1 },
      ]),
    ).toBe('key:\n\nend ()');
  });
});

describe('applyOnFail', () => {
  const text = 'Call 555-123-4567 today.';
  const findings = at(text, ['555-123-4567', 'PHONE_NUMBER']);

  it('masks, filters or blocks', () => {
    expect(applyOnFail(text, findings, 'mask')).toEqual({
      content: 'Call [PHONE] today.',
      blocked: false,
    });
    expect(applyOnFail(text, findings, 'filter')).toEqual({ content: 'Call today.', blocked: false });
    expect(applyOnFail(text, findings, 'fail')).toEqual({ content: text, blocked: true });
  });
});
