import type { Validator, ValidatorCatalogEntry } from '@aqm/wire';
import { describe, expect, it } from 'vitest';
import { checkValidatorsAgainst } from '../src/catalog/check-validators.js';
import { checkValidators, validatorCatalog } from '../src/catalog/index.js';

const KNOWN = 'prompt-injection, pii, toxicity, secrets, banned-topics';
const PII = 'EMAIL_ADDRESS, PHONE_NUMBER, CREDIT_CARD, IBAN_CODE, IP_ADDRESS, US_SSN';

describe('checkValidators', () => {
  it('accepts every catalog validator at each stage it allows, with valid settings', () => {
    for (const entry of validatorCatalog) {
      for (const stage of entry.stages) {
        const field = stage === 'input' ? 'input_validators' : 'output_validators';
        expect(checkValidators([{ type: entry.type, on_fail: 'fail' }], field)).toEqual([]);
      }
    }
    const validators: Validator[] = [
      { type: 'prompt-injection', on_fail: 'fail', config: { threshold: 0.8 } },
      { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'US_SSN'] } },
      { type: 'toxicity', on_fail: 'filter', config: { threshold: 0 } },
      { type: 'secrets', on_fail: 'mask', config: { entities: [] } },
      { type: 'banned-topics', on_fail: 'filter', config: { topics: ['politics', 'crypto currency'] } },
    ];
    expect(checkValidators(validators, 'input_validators')).toEqual([]);
  });

  it('names an unknown type with the known types', () => {
    expect(
      checkValidators(
        [
          { type: 'pii', on_fail: 'mask' },
          { type: 'nsfw', on_fail: 'fail' },
        ],
        'input_validators',
      ),
    ).toEqual([
      { path: 'input_validators[1].type', message: `unknown validator type "nsfw"; known: ${KNOWN}` },
    ]);
  });

  it('rejects a validator at a stage it does not allow', () => {
    expect(checkValidators([{ type: 'prompt-injection', on_fail: 'fail' }], 'output_validators')).toEqual([
      {
        path: 'output_validators[0].type',
        message: 'validator "prompt-injection" cannot run at the output stage; allowed stages: input',
      },
    ]);
  });

  it('rejects unknown settings, naming the accepted ones', () => {
    expect(
      checkValidators(
        [
          { type: 'pii', on_fail: 'mask', config: { foo: 1 } },
          { type: 'toxicity', on_fail: 'fail', config: { entities: ['X'] } },
        ],
        'input_validators',
      ),
    ).toEqual([
      {
        path: 'input_validators[0].config.foo',
        message: 'is not a setting of validator "pii"; accepted: entities',
      },
      {
        path: 'input_validators[1].config.entities',
        message: 'is not a setting of validator "toxicity"; accepted: threshold',
      },
    ]);
  });

  it('rejects wrong types and out-of-range numbers', () => {
    expect(
      checkValidators(
        [
          { type: 'toxicity', on_fail: 'fail', config: { threshold: 1.2 } },
          { type: 'toxicity', on_fail: 'fail', config: { threshold: 'high' } },
          { type: 'pii', on_fail: 'mask', config: { entities: 'EMAIL_ADDRESS' } },
          { type: 'banned-topics', on_fail: 'filter', config: { topics: ['ok', 5] } },
        ],
        'output_validators',
      ),
    ).toEqual([
      { path: 'output_validators[0].config.threshold', message: 'must be a number from 0 to 1, got 1.2' },
      { path: 'output_validators[1].config.threshold', message: 'must be a number from 0 to 1, got "high"' },
      {
        path: 'output_validators[2].config.entities',
        message: `must be an array of strings (values: ${PII}), got "EMAIL_ADDRESS"`,
      },
      { path: 'output_validators[3].config.topics[1]', message: 'must be a string, got 5' },
    ]);
  });

  it('rejects values outside an enum at the item path', () => {
    const validators: Validator[] = [
      { type: 'toxicity', on_fail: 'fail' },
      { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'PASSPORT'] } },
    ];
    expect(checkValidators(validators, 'output_validators')).toEqual([
      { path: 'output_validators[1].config.entities[2]', message: `must be one of ${PII}; got "PASSPORT"` },
    ]);
  });

  it('rejects a config that is not an object', () => {
    const validator = { type: 'pii', on_fail: 'mask', config: ['EMAIL_ADDRESS'] } as unknown as Validator;
    expect(checkValidators([validator], 'input_validators')).toEqual([
      { path: 'input_validators[0].config', message: "must be an object, got [ 'EMAIL_ADDRESS' ]" },
    ]);
  });
});

describe('checkValidatorsAgainst (string and boolean settings)', () => {
  const catalog: ValidatorCatalogEntry[] = [
    {
      type: 'custom',
      name: 'Custom',
      description: 'A validator with every kind of setting.',
      category: 'custom',
      stages: ['input' as const],
      configTemplate: {
        mode: { type: 'string' as const, description: 'Mode', enum: ['strict', 'lenient'] },
        label: { type: 'string' as const, description: 'Free text' },
        verbose: { type: 'boolean' as const, description: 'Flag' },
        size: { type: 'number' as const, description: 'At least 2', min: 2 },
      },
    },
    {
      type: 'plain',
      name: 'Plain',
      description: 'No settings.',
      category: 'plain',
      stages: ['input' as const],
      configTemplate: {},
    },
  ];

  it('checks enums, free strings, booleans and one-sided bounds', () => {
    const validators: Validator[] = [
      { type: 'custom', on_fail: 'fail', config: { mode: 'loose', label: 1, verbose: 'no', size: 1 } },
      { type: 'custom', on_fail: 'fail', config: { mode: 'strict', label: 'x', verbose: false, size: 200 } },
    ];
    expect(checkValidatorsAgainst(catalog, validators, 'input_validators')).toEqual([
      { path: 'input_validators[0].config.mode', message: 'must be one of strict, lenient; got "loose"' },
      { path: 'input_validators[0].config.label', message: 'must be a string, got 1' },
      { path: 'input_validators[0].config.verbose', message: 'must be a boolean, got "no"' },
      { path: 'input_validators[0].config.size', message: 'must be a number >= 2, got 1' },
    ]);
  });

  it('says when a validator takes no settings', () => {
    expect(
      checkValidatorsAgainst(
        catalog,
        [{ type: 'plain', on_fail: 'fail', config: { x: 1 } }],
        'input_validators',
      ),
    ).toEqual([
      {
        path: 'input_validators[0].config.x',
        message: 'is not a setting of validator "plain"; it takes no settings',
      },
    ]);
  });
});
