import { readProxyEnvironment } from '@aqm/client';
import { EnvValueError, readEnv } from '@aqm/otel/pipeline';
import { DiagLogLevel } from '@opentelemetry/api';
import { boundedText, ConfigError, type Env, flag, httpUrl, text, uuid } from './env-values.js';

/** Which application the traces belong to: a known id, or a name to find or create. */
export type ApplicationRef = { id: string } | { name: string };

/** Everything `startAuto` takes from the environment, checked. */
export interface AutoConfig {
  apiKey: string;
  baseUrl: string;
  application: ApplicationRef;
  /** `AQM_ENVIRONMENT`: `environment` of every trace. */
  environment: string | undefined;
  /** `AQM_APP_VERSION`: `appVersion` of every trace. */
  appVersion: string | undefined;
  /** `AQM_SAMPLE_RATE`: share of traces sent, 0..1. */
  sampleRate: number | undefined;
  /** `AQM_SERVERLESS`: traces wait for `forceFlush()` (no timer sends anything). */
  serverless: boolean | undefined;
  /** `AQM_PERSIST_MODE`: how `AQM_PERSIST_DIR` is used. */
  persistMode: 'overflow' | 'write-ahead' | undefined;
  /** `OTEL_SERVICE_NAME`: `service.name` of the tracer provider `@aqm/auto` creates. */
  serviceName: string | undefined;
  /** `AQM_FLUSH_TIMEOUT_MS`: longest the process is held at its end (flush and shutdown), and the bound of `forceFlush()`. */
  flushTimeoutMs: number;
  /** Record prompts and responses (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`, default true). */
  captureContent: boolean;
  /** `OTEL_LOG_LEVEL`, when set: a console logger for OpenTelemetry's `diag` at that level. */
  logLevel: DiagLogLevel | undefined;
}

/** What the environment says: run with a configuration, or stay off (with a warning to show, or not). */
export type ConfigOutcome =
  | { kind: 'enabled'; config: AutoConfig }
  | { kind: 'off'; reason: string; warning: string | undefined };

/** Default of `AQM_FLUSH_TIMEOUT_MS`. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;
/** Longest application name the service accepts. */
const MAX_APPLICATION_NAME = 100;

const LOG_LEVELS: Record<string, DiagLogLevel> = {
  NONE: DiagLogLevel.NONE,
  ERROR: DiagLogLevel.ERROR,
  WARN: DiagLogLevel.WARN,
  INFO: DiagLogLevel.INFO,
  DEBUG: DiagLogLevel.DEBUG,
  VERBOSE: DiagLogLevel.VERBOSE,
  ALL: DiagLogLevel.ALL,
};

const SETUP_HINT =
  'Set AQM_API_KEY, AQM_BASE_URL and AQM_APPLICATION_ID (or AQM_APPLICATION_NAME), ' +
  'or AQM_DISABLED=true to turn @aqm/auto off without this warning.';

function off(problem: string, hint = SETUP_HINT): ConfigOutcome {
  return { kind: 'off', reason: problem, warning: `${problem}, so no LLM trace is sent. ${hint}` };
}

function readApplication(env: Env): ApplicationRef | undefined {
  // The id wins when both are set: it names the application exactly, with no lookup.
  const id = uuid(env, 'AQM_APPLICATION_ID');
  if (id !== undefined) return { id };
  const name = boundedText(env, 'AQM_APPLICATION_NAME', MAX_APPLICATION_NAME);
  return name === undefined ? undefined : { name };
}

/** A variable of `ENV_VARIABLES`, checked as every package checks it. */
function shared<T extends string | number | boolean>(env: Env, name: string): T | undefined {
  try {
    return readEnv<T>(env, name);
  } catch (error) {
    if (error instanceof EnvValueError) throw new ConfigError(name, error.expectation, error.value);
    throw error;
  }
}

function readLogLevel(env: Env): DiagLogLevel | undefined {
  // An unknown level is OpenTelemetry's business (its own SDKs ignore it); it never turns tracing off.
  const value = text(env, 'OTEL_LOG_LEVEL');
  return value === undefined ? undefined : LOG_LEVELS[value.toUpperCase()];
}

/** A key pasted into the wrong variable would otherwise be shown as that variable's value. */
function redact(value: string, key: string | undefined): string {
  return key === undefined ? value : value.replaceAll(key, '[redacted]');
}

/**
 * Reads and checks the configuration of `@aqm/auto` from environment variables. Never throws:
 * a missing or bad variable gives `off` with one warning naming it (never the API key's value).
 *
 * @example
 * const outcome = readAutoConfig(process.env);
 * if (outcome.kind === 'off' && outcome.warning) console.warn(outcome.warning);
 */
export function readAutoConfig(env: Env): ConfigOutcome {
  try {
    // OpenTelemetry's own switch (only `true` counts, as in its SDKs): no tracing at all, no warning.
    if (text(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
      return { kind: 'off', reason: 'OTEL_SDK_DISABLED is true', warning: undefined };
    }
    if (shared<boolean>(env, 'AQM_DISABLED') === true) {
      return { kind: 'off', reason: 'AQM_DISABLED is true', warning: undefined };
    }
    // The key is only checked for presence: its value never appears in a message.
    const apiKey = text(env, 'AQM_API_KEY');
    if (apiKey === undefined) return off('AQM_API_KEY is not set');
    const baseUrl = httpUrl(env, 'AQM_BASE_URL');
    if (baseUrl === undefined) return off('AQM_BASE_URL is not set');
    const application = readApplication(env);
    if (application === undefined) return off('Neither AQM_APPLICATION_ID nor AQM_APPLICATION_NAME is set');
    // Traces go through HTTP(S)_PROXY when set: one that cannot be used turns @aqm/auto off, as a
    // bad AQM_BASE_URL does (going out directly would fail, or bypass the network's policy).
    const proxyProblems = readProxyEnvironment(env).problems;
    if (proxyProblems.length > 0) {
      return off(redact(proxyProblems.join('; '), apiKey), 'Fix the variable, or set AQM_DISABLED=true.');
    }
    const capture = flag(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT');
    return {
      kind: 'enabled',
      config: {
        apiKey,
        baseUrl,
        application,
        environment: shared<string>(env, 'AQM_ENVIRONMENT'),
        appVersion: shared<string>(env, 'AQM_APP_VERSION'),
        sampleRate: shared<number>(env, 'AQM_SAMPLE_RATE'),
        serverless: shared<boolean>(env, 'AQM_SERVERLESS'),
        persistMode: shared<'overflow' | 'write-ahead'>(env, 'AQM_PERSIST_MODE'),
        serviceName: text(env, 'OTEL_SERVICE_NAME'),
        flushTimeoutMs: shared<number>(env, 'AQM_FLUSH_TIMEOUT_MS') ?? DEFAULT_FLUSH_TIMEOUT_MS,
        captureContent: capture ?? true,
        logLevel: readLogLevel(env),
      },
    };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const key = text(env, 'AQM_API_KEY');
    return off(
      error.describe((value) => redact(value, key)),
      'Fix the variable, or set AQM_DISABLED=true.',
    );
  }
}
