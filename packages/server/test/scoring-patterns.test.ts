import { describe, expect, it } from 'vitest';
import { combinedWeight, countByEntity, findPatterns, mergeFindings } from '../src/scoring/findings.js';
import {
  type EntityPattern,
  ibanValid,
  luhnValid,
  PII_PATTERNS,
  SECRET_PATTERNS,
} from '../src/scoring/patterns.js';

/** The entity and matched text of every finding. */
function found(text: string, patterns: ReadonlyArray<EntityPattern> = PII_PATTERNS, entities?: string[]) {
  return findPatterns(text, patterns, entities && new Set(entities)).map((f) => [
    f.entity,
    text.slice(f.start, f.end),
  ]);
}

describe('checksums', () => {
  it('Luhn accepts valid card numbers only', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('IBAN mod 97 accepts valid IBANs only', () => {
    expect(ibanValid('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
    expect(ibanValid('DE89')).toBe(false);
  });
});

describe('PII_PATTERNS', () => {
  it('finds e-mail addresses', () => {
    expect(found('Mail ann.lee+x@mail.example.co.uk, or bob@example.com.')).toEqual([
      ['EMAIL_ADDRESS', 'ann.lee+x@mail.example.co.uk'],
      ['EMAIL_ADDRESS', 'bob@example.com'],
    ]);
    expect(found('not an address: user@localhost or @handle')).toEqual([]);
  });

  it('finds card numbers that pass Luhn, bare or grouped', () => {
    expect(
      found('Cards: 4111 1111 1111 1111, 4111-1111-1111-1111, 378282246310005, 3782 822463 10005.'),
    ).toEqual([
      ['CREDIT_CARD', '4111 1111 1111 1111'],
      ['CREDIT_CARD', '4111-1111-1111-1111'],
      ['CREDIT_CARD', '378282246310005'],
      ['CREDIT_CARD', '3782 822463 10005'],
    ]);
    expect(found('Order 4111 1111 1111 1112 and 1234567890123')).toEqual([]);
  });

  it('finds IBANs that pass mod 97', () => {
    expect(found('Pay to DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432.')).toEqual([
      ['IBAN_CODE', 'DE89 3704 0044 0532 0130 00'],
      ['IBAN_CODE', 'GB82WEST12345698765432'],
    ]);
    expect(found('Code DE00 3704 0044 0532 0130 00')).toEqual([]);
  });

  it('finds US SSNs but not numbers never issued', () => {
    expect(found('SSN 123-45-6789.')).toEqual([['US_SSN', '123-45-6789']]);
    expect(found('000-12-3456, 666-12-3456, 900-12-3456, 123-00-4567, 123-45-0000')).toEqual([]);
  });

  it('finds IPv4 addresses with valid octets', () => {
    expect(found('Hosts 10.0.0.1, 192.168.1.254.')).toEqual([
      ['IP_ADDRESS', '10.0.0.1'],
      ['IP_ADDRESS', '192.168.1.254'],
    ]);
    expect(found('Version 1.2.3.256 and 1.2.3 and 1.2.3.4.5')).toEqual([]);
  });

  it('finds phone numbers of 10 to 15 digits', () => {
    expect(found('Call +44 20 7946 0958, (555) 123-4567, 555.123.4567 or +14155550123.')).toEqual([
      ['PHONE_NUMBER', '+44 20 7946 0958'],
      ['PHONE_NUMBER', '(555) 123-4567'],
      ['PHONE_NUMBER', '555.123.4567'],
      ['PHONE_NUMBER', '+14155550123'],
    ]);
    expect(found('On 2026-01-31 at 12 30, room 12-34, order 5551234567')).toEqual([]);
  });

  it('limits detection to the requested entities', () => {
    const text = 'ann@example.com 123-45-6789';
    expect(found(text, PII_PATTERNS, ['US_SSN'])).toEqual([['US_SSN', '123-45-6789']]);
    expect(found(text, PII_PATTERNS, [])).toEqual([]);
  });

  it('reports a card once even though its groups also look like a phone number', () => {
    expect(found('card 4111 1111 1111 1111')).toEqual([['CREDIT_CARD', '4111 1111 1111 1111']]);
  });
});

describe('SECRET_PATTERNS', () => {
  it('finds API keys, AWS key ids and GitHub tokens', () => {
    const github = `ghp_${'a1B2'.repeat(9)}`;
    const text = `keys sk-proj-abc123DEF456ghi789JKL0, AKIAIOSFODNN7EXAMPLE and ${github}.`;
    expect(found(text, SECRET_PATTERNS)).toEqual([
      ['API_KEY', 'sk-proj-abc123DEF456ghi789JKL0'],
      ['AWS_ACCESS_KEY', 'AKIAIOSFODNN7EXAMPLE'],
      ['GITHUB_TOKEN', github],
    ]);
    expect(found('ask-me-anything-about-everything-today and sk-short1', SECRET_PATTERNS)).toEqual([]);
  });

  it('finds private key blocks whole', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc=\n-----END RSA PRIVATE KEY-----';
    expect(found(`key:\n${block}\nend`, SECRET_PATTERNS)).toEqual([['PRIVATE_KEY', block]]);
  });

  it('finds password values without their key or sentence punctuation', () => {
    expect(found('Use password=hunter2. Or pwd: "s3cret pass", PASSWD=x!y', SECRET_PATTERNS)).toEqual([
      ['PASSWORD', 'hunter2'],
      ['PASSWORD', '"s3cret pass"'],
      ['PASSWORD', 'x!y'],
    ]);
    expect(found('The password policy is strict.', SECRET_PATTERNS)).toEqual([]);
  });
});

describe('findings', () => {
  it('merges overlapping findings, naming them after the longest and keeping the highest weight', () => {
    const merged = mergeFindings([
      { start: 10, end: 14, entity: 'B', weight: 0.2 },
      { start: 0, end: 4, entity: 'A', weight: 0.5 },
      { start: 2, end: 9, entity: 'C', weight: 0.3 },
      { start: 14, end: 16, entity: 'D', weight: 1 },
    ]);
    expect(merged).toEqual([
      { start: 0, end: 9, entity: 'C', weight: 0.5 },
      { start: 10, end: 14, entity: 'B', weight: 0.2 },
      { start: 14, end: 16, entity: 'D', weight: 1 },
    ]);
  });

  it('combines weights as independent evidence and counts entities', () => {
    const findings = [
      { start: 0, end: 1, entity: 'X', weight: 0.5 },
      { start: 2, end: 3, entity: 'Y', weight: 0.5 },
      { start: 4, end: 5, entity: 'X', weight: 0.5 },
    ];
    expect(combinedWeight(findings)).toBe(1 - 0.5 ** 3);
    expect(combinedWeight([])).toBe(0);
    expect(countByEntity(findings)).toBe('X ×2, Y ×1');
  });
});
