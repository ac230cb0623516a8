import { bannedTopicsValidator } from './banned-topics.js';
import { piiValidator } from './pii.js';
import { promptInjectionValidator } from './prompt-injection.js';
import { secretsValidator } from './secrets.js';
import { toxicityValidator } from './toxicity.js';
import type { GuardrailValidator } from './types.js';

/** The implementation of every validator catalog entry, keyed by validator `type`. */
export const guardrailValidators: ReadonlyMap<string, GuardrailValidator> = new Map(
  [promptInjectionValidator, piiValidator, toxicityValidator, secretsValidator, bannedTopicsValidator].map(
    (validator) => [validator.type, validator],
  ),
);
