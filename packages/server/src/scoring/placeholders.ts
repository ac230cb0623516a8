import { PII_ENTITY_OF_KIND, PII_PLACEHOLDERS, type PiiKind } from '@aqm/wire';

const SHARED = new Map<string, string>(
  (Object.keys(PII_ENTITY_OF_KIND) as PiiKind[]).map((kind) => [
    PII_ENTITY_OF_KIND[kind],
    PII_PLACEHOLDERS[kind],
  ]),
);

/**
 * What `mask` puts in place of a finding: the placeholder the exporter's `maskPII` uses for the
 * same data (`[EMAIL]`, `[PHONE]`, `[CARD]`, `[IBAN]`, one definition in @aqm/wire), and
 * `[ENTITY]` for the rest (`[US_SSN]`, `[API_KEY]`, `password=[PASSWORD]`, `[BANNED_TOPIC]`).
 */
export function placeholderOf(entity: string): string {
  return SHARED.get(entity) ?? `[${entity}]`;
}
