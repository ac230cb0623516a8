import { visibleControls } from '@aqm/wire/light';
import { describeValue, optionLabel } from './option-checks.js';
import { EnvValueError, readEnv } from './setup/env-values.js';

/** The options read from the environment when not passed in code (see `ENV_VARIABLES`). */
export interface EnvKnobs {
  environment: string | undefined;
  appVersion: string | undefined;
  sampleRate: number | undefined;
  serverless: boolean | undefined;
  persistMode: 'overflow' | 'write-ahead' | undefined;
  /** Each variable set to something unusable, described (the component turns itself off). */
  invalid: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `environment`, `appVersion`, `sampleRate`, `serverless` and `persistMode` from `AQM_ENVIRONMENT`,
 * `AQM_APP_VERSION`, `AQM_SAMPLE_RATE`, `AQM_SERVERLESS` and `AQM_PERSIST_MODE`, each only when the option was not
 * passed in code (the option wins). Never throws: an unusable value is described in `invalid`.
 *
 * @example
 * readEnvKnobs({}, { AQM_SAMPLE_RATE: '0.5' }).sampleRate; // 0.5
 */
export function readEnvKnobs(raw: Record<string, unknown>, env: Env): EnvKnobs {
  const invalid: string[] = [];
  // A key pasted into the wrong variable would otherwise be shown as that variable's value.
  const key = typeof raw.apiKey === 'string' ? raw.apiKey : env.AQM_API_KEY?.trim();
  const hide = (text: string) =>
    key === undefined || key.length < 4 ? text : text.replaceAll(key, '[redacted]');
  const read = <T extends string | number | boolean>(option: string, name: string): T | undefined => {
    if (raw[option] !== undefined) return undefined;
    try {
      return readEnv<T>(env, name);
    } catch (error) {
      if (!(error instanceof EnvValueError)) throw error;
      invalid.push(
        `Expected ${optionLabel(option, name)} to be ${error.expectation}, got ${visibleControls(describeValue(hide(error.value)))}`,
      );
      return undefined;
    }
  };
  return {
    environment: read<string>('environment', 'AQM_ENVIRONMENT'),
    appVersion: read<string>('appVersion', 'AQM_APP_VERSION'),
    sampleRate: read<number>('sampleRate', 'AQM_SAMPLE_RATE'),
    serverless: read<boolean>('serverless', 'AQM_SERVERLESS'),
    persistMode: read<'overflow' | 'write-ahead'>('persistMode', 'AQM_PERSIST_MODE'),
    invalid,
  };
}
