import { INJECTION_PHRASES } from '../phrase-lists.js';
import { phraseValidator } from './phrase-validator.js';

/** `prompt-injection`: known injection and jailbreak phrases, weighted; fails at `threshold` (default 0.5). */
export const promptInjectionValidator = phraseValidator(
  'prompt-injection',
  INJECTION_PHRASES,
  'PROMPT_INJECTION',
  'prompt-injection phrase',
);
