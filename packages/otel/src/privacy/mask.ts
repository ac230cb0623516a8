import { PII_DETECTORS, PII_PLACEHOLDERS } from '@aqm/wire/light';

/**
 * Rewrites a text value before it leaves the process. `field` names where the value goes
 * (`prompt`, `response`, `context`, `errorMessage`, `sessionId`, `userId`, `metadata.<key>`,
 * `span.attributes.<key>`, `span.events.<name>.<key>`, `span.status`), so a mask can treat fields
 * differently. A mask that throws (or returns a non-string) blanks the value rather than leaking it.
 */
export type MaskFunction = (value: string, info: { field: string }) => string;

// The detectors and placeholders are the ones the local service's `pii` guardrail uses: one
// definition in @aqm/wire, so the two sides agree on what personal data is and how it is masked.
export { PII_PLACEHOLDERS };

/**
 * A ready {@link MaskFunction} that replaces e-mail addresses (`[EMAIL]`), IBANs with a valid
 * checksum (`[IBAN]`), card numbers of 13 to 19 digits passing the Luhn check (`[CARD]`) and phone
 * numbers (`[PHONE]`): international `+` numbers of 7 to 15 digits (separators space . - /, `(area)`
 * groups), national numbers with a trunk 0 of 8 to 12 digits (`0170 1234567`, `06 12 34 56 78`,
 * `0612345678`), a bracketed area code (`(555) 123-4567`), North American 10-digit numbers with or
 * without separators (`415-555-0100`, `4155550100`) and 7-digit local numbers with a dash
 * (`555-0100`). Dates, times, versions, amounts, IP addresses, short numbers and numbers failing the
 * checksums are left alone.
 *
 * @example
 * maskPII('Mail bob@example.com or call +1 415 555 0100', { field: 'prompt' });
 * // → 'Mail [EMAIL] or call [PHONE]'
 */
export const maskPII: MaskFunction = (value) => {
  // Cheap pre-checks skip the regex passes for the common text without '@' or digits.
  let out = value;
  for (const { kind, regex, valid } of PII_DETECTORS) {
    if (kind === 'email' ? !out.includes('@') : !/\d/.test(out)) continue;
    // In order, each on the previous pass's output (see PII_DETECTORS).
    out = out.replace(regex, (match: string) => (valid(match) ? PII_PLACEHOLDERS[kind] : match));
  }
  return out;
};
