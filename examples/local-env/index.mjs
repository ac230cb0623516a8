// What every example needs around its own code: a service, an application and a model to talk
// to (local ones when none is configured), and a readable print-out of what the service recorded.
export { DEFAULT_MONITORING, describeEnvironment, startLocalEnvironment } from './environment.mjs';
export { formatTrace, oneLine, printRecordedTraces, readRecordedTraces } from './recorded-traces.mjs';
export { describeError, runExample } from './run-example.mjs';
