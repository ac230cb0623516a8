/**
 * Size limits of what a request may carry besides the body limit (contract decisions, see
 * docs/wire-contract.md). Every one is answered 400 naming the field: the service scores text
 * from LLM apps' end users, so the work one request can cause is bounded.
 */
/** Maximum number of traces in one `POST /evaluations` (contract decision). */
export const MAX_TRACES_PER_SUBMISSION = 100;
/** Maximum request body size; larger bodies get 413 (contract decision). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Validators per stage (`input_validators`, `output_validators`). */
export const MAX_VALIDATORS_PER_STAGE = 20;
/** Metrics of a monitoring configuration. */
export const MAX_METRICS = 50;
/** Plugin categories of a monitoring configuration, and plugin ids per category. */
export const MAX_PLUGIN_CATEGORIES = 50;
/** Plugin ids in one category. */
export const MAX_PLUGINS_PER_CATEGORY = 200;
/** Items of a validator `config` list (e.g. `banned-topics` `topics`, `pii` `entities`). */
export const MAX_CONFIG_LIST_ITEMS = 200;
/** Characters of a short configuration string: a validator `type`, a topic, a plugin id, a widget id. */
export const MAX_SHORT_TEXT = 200;
/** Characters of a free-text configuration string (`securityPurpose`, `securityConfig` values). */
export const MAX_CONFIG_TEXT = 10_000;
/** Characters of a `search` query parameter. */
export const MAX_SEARCH_CHARS = 1000;
/** Widget ids in one widget-data request. */
export const MAX_WIDGET_TYPES = 50;
/** Nesting levels of a span or event attribute value (an object or array at the top is level 1). */
export const MAX_ATTRIBUTE_DEPTH = 32;
