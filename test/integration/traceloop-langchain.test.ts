import { beforeAll, describe, it } from 'vitest';
import { SCENARIO_NAMES } from '../fixtures/scenarios.mjs';
import {
  expectCleanRun,
  expectRightRecord,
  runSource,
  SOURCE_RUN_TIMEOUT_MS,
  type SourceRun,
} from './recorded-source-run.js';

// Traceloop's LangChain instrumentation (test/fixtures/traceloop-langchain): the real
// @traceloop/instrumentation-langchain, @langchain/core and @langchain/openai, into the built
// @aqm/otel and the local service. Its handler parents every run to the active span, so a
// chain's runs are siblings under the app's request span.

describe('traceloop-langchain', () => {
  let run: SourceRun;
  beforeAll(async () => {
    run = await runSource('traceloop-langchain', 'traceloop-langchain');
  }, SOURCE_RUN_TIMEOUT_MS + 10_000);

  it('runs cleanly: nothing on stderr, one trace per scenario', () => {
    expectCleanRun(run);
  });

  it.each(SCENARIO_NAMES)('%s: the question, the final text answer, the status, the model', (name) => {
    expectRightRecord(run, name, 'gpt-4o-mini');
  });
});
