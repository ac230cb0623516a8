import { TOXIC_TERMS } from '../phrase-lists.js';
import { phraseValidator } from './phrase-validator.js';

/** `toxicity`: insults, profanity and threats, weighted; fails at `threshold` (default 0.5). */
export const toxicityValidator = phraseValidator('toxicity', TOXIC_TERMS, 'TOXIC_LANGUAGE', 'toxic term');
