import type { ConfigFieldTemplate, ValidatorCatalogEntry } from '@aqm/wire';

/** PII entity names, as in Microsoft Presidio; also the placeholders `mask` writes (`[EMAIL]`). */
export const PII_ENTITIES = [
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'IP_ADDRESS',
  'US_SSN',
] as const;
/** A PII entity name. */
export type PiiEntity = (typeof PII_ENTITIES)[number];

/** Secret kinds of the `secrets` validator; also its `mask` placeholders. */
export const SECRET_ENTITIES = [
  'API_KEY',
  'AWS_ACCESS_KEY',
  'GITHUB_TOKEN',
  'PRIVATE_KEY',
  'PASSWORD',
] as const;
/** A secret kind name. */
export type SecretEntity = (typeof SECRET_ENTITIES)[number];

function thresholdTemplate(what: string, defaultValue: number): ConfigFieldTemplate {
  return {
    type: 'number',
    description: `The validator fails when its ${what} score (0 to 1) reaches this value.`,
    min: 0,
    max: 1,
    default: defaultValue,
  };
}

/** `GET /guardrails/validators` data: the validator types usable in a guardrails configuration. */
export const validatorCatalog: ValidatorCatalogEntry[] = [
  {
    type: 'prompt-injection',
    name: 'Prompt injection',
    description:
      'Detects known prompt-injection and jailbreak phrases, such as "ignore previous instructions".',
    category: 'prompt-injection',
    stages: ['input'],
    configTemplate: { threshold: thresholdTemplate('injection', 0.5) },
  },
  {
    type: 'pii',
    name: 'PII',
    description:
      'Detects personal data: e-mail addresses, phone numbers, card numbers, IBANs, IP addresses, US SSNs.',
    category: 'pii',
    stages: ['input', 'output'],
    configTemplate: {
      entities: {
        type: 'string[]',
        description: 'The PII entities to detect (default: all).',
        enum: [...PII_ENTITIES],
        default: [...PII_ENTITIES],
      },
    },
  },
  {
    type: 'toxicity',
    name: 'Toxicity',
    description: 'Detects insults, profanity and threats with a weighted word list.',
    category: 'toxicity',
    stages: ['input', 'output'],
    configTemplate: { threshold: thresholdTemplate('toxicity', 0.5) },
  },
  {
    type: 'secrets',
    name: 'Secrets',
    description:
      'Detects credentials: sk- API keys, AWS access key ids, GitHub tokens, private key blocks, passwords.',
    category: 'secrets',
    stages: ['input', 'output'],
    configTemplate: {
      entities: {
        type: 'string[]',
        description: 'The secret kinds to detect (default: all).',
        enum: [...SECRET_ENTITIES],
        default: [...SECRET_ENTITIES],
      },
    },
  },
  {
    type: 'banned-topics',
    name: 'Banned topics',
    description: 'Detects sentences that mention one of the configured topics.',
    category: 'banned-topics',
    stages: ['input', 'output'],
    configTemplate: {
      topics: {
        type: 'string[]',
        description: 'Words or phrases of the banned topics, matched as whole words (default: none).',
        default: [],
      },
    },
  },
];

/** The catalog entry of the validator type `type`, if there is one. */
export function findValidatorEntry(type: string): ValidatorCatalogEntry | undefined {
  return validatorCatalog.find((entry) => entry.type === type);
}
