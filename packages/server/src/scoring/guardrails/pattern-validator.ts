import { countByEntity, findPatterns } from '../findings.js';
import type { EntityPattern } from '../patterns.js';
import { plural } from '../text.js';
import { stringListValue } from './config.js';
import type { GuardrailValidator } from './types.js';

/**
 * A validator that fails on any match of a pattern list, limited to the configured
 * `entities` (default: all). Its score is 1 when something was found, else 0.
 */
export function patternValidator(
  type: string,
  patterns: ReadonlyArray<EntityPattern>,
  noun: [singular: string, plural: string],
): GuardrailValidator {
  return {
    type,
    detect(text, config) {
      const entities = new Set(stringListValue(type, config, 'entities'));
      const findings = findPatterns(text, patterns, entities);
      const failed = findings.length > 0;
      const summary = failed
        ? `found ${plural(findings.length, noun[0], noun[1])} (${countByEntity(findings)})`
        : `no ${noun[1]} found`;
      return { findings, score: failed ? 1 : 0, failed, summary };
    },
  };
}
