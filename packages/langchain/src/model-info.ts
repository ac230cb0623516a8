/**
 * Which model a run calls, through which provider and with which parameters, from what LangChain
 * hands the start callbacks: `extraParams.invocation_params`, the `ls_*` metadata and the
 * serialised class.
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR } from './attributes.js';
import { isObject, nonEmptyString } from './message-view.js';

/** LangChain's `ls_provider` values whose GenAI name differs (semantic conventions' well-known values). */
const PROVIDER_NAMES: Record<string, string> = {
  azure: 'azure.ai.openai',
  azure_openai: 'azure.ai.openai',
  amazon_bedrock: 'aws.bedrock',
  bedrock: 'aws.bedrock',
  google_genai: 'gcp.gemini',
  google_vertexai: 'gcp.vertex_ai',
  mistral: 'mistral_ai',
  mistralai: 'mistral_ai',
  xai: 'x_ai',
};

/** The model side of a model run. */
export interface ModelInfo {
  model?: string;
  provider?: string;
  /** `gen_ai.request.*` parameters found in the invocation parameters. */
  requestAttributes: Attributes;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The class name of a serialised LangChain object (`id`'s last element). */
export function serializedClassName(serialized: unknown): string | undefined {
  if (!isObject(serialized) || !Array.isArray(serialized.id)) return undefined;
  return nonEmptyString(serialized.id[serialized.id.length - 1]);
}

/** `ChatOpenAI` → `openai`, `ChatAnthropic` → `anthropic`, `Ollama` → `ollama`. */
function providerFromClass(className: string | undefined): string | undefined {
  if (className === undefined) return undefined;
  const stripped = className.replace(/^Chat(?=[A-Z])/, '');
  return stripped === '' ? undefined : stripped.toLowerCase();
}

/** The GenAI provider name of a LangChain `ls_provider` or class name. */
export function providerName(lsProvider: unknown, className: string | undefined): string | undefined {
  const raw = nonEmptyString(lsProvider)?.toLowerCase() ?? providerFromClass(className);
  return raw === undefined ? undefined : (PROVIDER_NAMES[raw] ?? raw);
}

/**
 * The model, provider and request parameters of a model run.
 *
 * @example
 * modelInfo(serialized, { invocation_params: { model: 'gpt-4o', temperature: 0 } }, { ls_provider: 'openai' });
 * // { model: 'gpt-4o', provider: 'openai', requestAttributes: { 'gen_ai.request.temperature': 0 } }
 */
export function modelInfo(serialized: unknown, extraParams: unknown, metadata: unknown): ModelInfo {
  const params =
    isObject(extraParams) && isObject(extraParams.invocation_params) ? extraParams.invocation_params : {};
  const meta = isObject(metadata) ? metadata : {};
  const model =
    nonEmptyString(params.model) ??
    nonEmptyString(params.model_name) ??
    nonEmptyString(params.modelName) ??
    nonEmptyString(params.model_id) ??
    nonEmptyString(params.modelId) ??
    nonEmptyString(meta.ls_model_name);
  const requestAttributes: Attributes = {};
  const temperature = finiteNumber(params.temperature) ?? finiteNumber(meta.ls_temperature);
  if (temperature !== undefined) requestAttributes[ATTR.requestTemperature] = temperature;
  const maxTokens =
    finiteNumber(params.max_tokens) ??
    finiteNumber(params.maxTokens) ??
    finiteNumber(params.max_completion_tokens) ??
    finiteNumber(meta.ls_max_tokens);
  if (maxTokens !== undefined) requestAttributes[ATTR.requestMaxTokens] = maxTokens;
  const topP = finiteNumber(params.top_p) ?? finiteNumber(params.topP);
  if (topP !== undefined) requestAttributes[ATTR.requestTopP] = topP;
  return {
    model,
    provider: providerName(meta.ls_provider, serializedClassName(serialized)),
    requestAttributes,
  };
}
