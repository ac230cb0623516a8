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
    // Formats that used to leak (or, for the compact `+` number, become `+[CARD]`).
    ['German mobile with a space', 'call 0170 1234567 now', 'call [PHONE] now'],
    ['German mobile with a slash', 'Tel. 0170/1234567', 'Tel. [PHONE]'],
    ['UK mobile', 'mobile: 07911 123456.', 'mobile: [PHONE].'],
    ['French number in pairs', 'appelez le 06 12 34 56 78', 'appelez le [PHONE]'],
    ['French number compact', 'tel 0612345678', 'tel [PHONE]'],
    ['North American compact', 'text 4155550100 today', 'text [PHONE] today'],
    ['7-digit local with a dash', 'dial 555-0100.', 'dial [PHONE].'],
    ['international compact, Luhn-valid digits', 'call +4915112345678', 'call [PHONE]'],
    // More international and North American forms.
    ['international with a (0) trunk group', 'Tel +49 (0)170 1234567', 'Tel [PHONE]'],
    ['international with a slash', 'Fax +49 170/1234567', 'Fax [PHONE]'],
    ['international in pairs', 'tel:+33 6 12 34 56 78', 'tel:[PHONE]'],
    ['international with a bracketed area code', '+1 (415) 555-0100', '[PHONE]'],
    ['North American with dots', 'ring 415.555.0100', 'ring [PHONE]'],
    ['North American toll-free with a 1 prefix', 'call 1-800-555-0199', 'call [PHONE]'],
    ['bracketed national area code', 'Büro (030) 1234567', 'Büro [PHONE]'],
    ['two local numbers', '555-0100 or 555-0199', '[PHONE] or [PHONE]'],
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
    ['ISO dates', 'due 2026-11-24, then 2026-12-01'],
    ['an ISO timestamp', 'at 2026-11-24T08:30:00Z'],
    ['dotted and slashed dates', 'am 01.02.2026 oder 24.11.2026, le 01/02/2026'],
    ['times', 'from 08:30 to 17:45:30'],
    ['version strings', 'upgrade 1.2.3 to v10.20.300 (build 0.12.1)'],
    ['short order ids', 'order #12345 and #4155550100'],
    ['amounts', 'total 1,234.56 USD, €1.234,56, $1,234,567.89'],
    ['a decimal', 'pi is 3.14159265'],
    ['a short + number', 'score +12345'],
    ['a zero-padded id', 'ticket 0000123456'],
  ])('leaves %s alone', (_name, input) => {
    expect(mask(input)).toBe(input);
  });

  it('runs in linear time on adversarial input', () => {
    const inputs = [
      'a'.repeat(200_000),
      '1 '.repeat(100_000),
      `${'a.'.repeat(100_000)}@`,
      '+1'.repeat(100_000),
      '+1 '.repeat(100_000),
      `+${'1 '.repeat(100_000)}`,
      '(1'.repeat(100_000),
      '(12) '.repeat(50_000),
      '01 '.repeat(100_000),
      '0'.repeat(200_000),
      '555-'.repeat(50_000),
      '1-'.repeat(100_000),
    ];
    const started = performance.now();
    for (const input of inputs) mask(input);
    // Quadratic behaviour on these inputs would take minutes; linear takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
