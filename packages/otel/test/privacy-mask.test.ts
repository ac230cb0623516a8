import { describe, expect, it } from 'vitest';
import { maskPII } from '../src/privacy/mask.js';

const mask = (value: string) => maskPII(value, { field: 'prompt' });

describe('maskPII', () => {
  it.each([
    ['e-mail', 'Write to jane.doe+news@mail.example.co.uk today', 'Write to [EMAIL] today'],
    ['two e-mails', 'a@b.io, c_d@e-f.org', '[EMAIL], [EMAIL]'],
    ['Visa card with spaces', 'card 4111 1111 1111 1111 exp 12/29', 'card [CARD] exp 12/29'],
    ['Mastercard with dashes', 'pay 5555-5555-5555-4444 now', 'pay [CARD] now'],
    ['Amex without separators', 'amex 378282246310005', 'amex [CARD]'],
    ['German IBAN with spaces', 'IBAN DE89 3704 0044 0532 0130 00.', 'IBAN [IBAN].'],
    ['GB IBAN compact', 'to GB82WEST12345698765432', 'to [IBAN]'],
    ['international phone', 'call +1 415-555-0100 please', 'call [PHONE] please'],
    ['international phone, spaces', 'Tel: +44 20 7946 0958', 'Tel: [PHONE]'],
    ['phone with area code in brackets', 'ring (555) 123-4567', 'ring [PHONE]'],
    ['national phone with dashes', 'ring 555-123-4567', 'ring [PHONE]'],
    ['national phone with spaces', 'ring 020 7946 0958', 'ring [PHONE]'],
  ])('masks %s', (_name, input, expected) => {
    expect(mask(input)).toBe(expected);
  });

  it.each([
    ['a card-like number failing the Luhn check', 'order 4111 1111 1111 1112'],
    ['an IBAN with a wrong checksum', 'IBAN DE00 3704 0044 0532 0130 00'],
    ['an ISO date', 'on 2026-01-31 at 12:00'],
    ['an IP address', 'host 192.168.100.200'],
    ['a version number', 'v1.2.3 released'],
    ['a short number', 'room 1234'],
    ['an at-sign without domain', 'meet @ noon'],
    ['plain text', 'no personal data here'],
  ])('leaves %s alone', (_name, input) => {
    expect(mask(input)).toBe(input);
  });

  it('runs in linear time on adversarial input', () => {
    const inputs = [
      'a'.repeat(200_000),
      '1 '.repeat(100_000),
      `${'a.'.repeat(100_000)}@`,
      '+1'.repeat(100_000),
    ];
    const started = performance.now();
    for (const input of inputs) mask(input);
    // Quadratic behaviour on these inputs would take minutes; linear takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
