import type { Finding } from '../findings.js';

/** What a validator found in a text. */
export interface Detection {
  /** Located, merged findings: the spans `mask` and `filter` act on. */
  findings: Finding[];
  /** The validator's confidence that the text violates its rule, in [0, 1]. */
  score: number;
  /** Whether the validator fails the text (its `on_fail` then applies). */
  failed: boolean;
  /** What was found, with the figures; used as the component message on failure. */
  summary: string;
}

/** A guardrail validator of the local service, implementing one validator catalog `type`. */
export interface GuardrailValidator {
  type: string;
  /** Inspects `text` with the validator's `config` (values outside the template fall back to defaults). */
  detect(text: string, config: Readonly<Record<string, unknown>> | undefined): Detection;
}
