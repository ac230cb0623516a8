/**
 * The part of the wire contract that needs no zod: the size limits, the PII detectors and the
 * printable-text helpers. For packages that load on an app's start (`@aqm/otel`), where importing
 * every schema (and zod) would lengthen each cold start; everything here is also in the main entry.
 * @packageDocumentation
 */
export {
  MAX_ATTRIBUTE_DEPTH,
  MAX_BODY_BYTES,
  MAX_CONFIG_LIST_ITEMS,
  MAX_CONFIG_TEXT,
  MAX_METRICS,
  MAX_PLUGIN_CATEGORIES,
  MAX_PLUGINS_PER_CATEGORY,
  MAX_SEARCH_CHARS,
  MAX_SHORT_TEXT,
  MAX_TRACES_PER_SUBMISSION,
  MAX_VALIDATORS_PER_STAGE,
  MAX_WIDGET_TYPES,
} from './limits.js';
export {
  ibanValid,
  luhnValid,
  PII_DETECTORS,
  PII_ENTITY_OF_KIND,
  PII_PLACEHOLDERS,
  type PiiDetector,
  type PiiKind,
} from './pii.js';
export { printableLine, visibleControls } from './visible-controls.js';
