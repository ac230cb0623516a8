import { PII_PATTERNS } from '../patterns.js';
import { patternValidator } from './pattern-validator.js';

/** `pii`: e-mail addresses, phone numbers, card numbers (Luhn), IBANs (mod 97), IPv4 addresses, US SSNs. */
export const piiValidator = patternValidator('pii', PII_PATTERNS, ['PII entity', 'PII entities']);
