// The install combinations the READMEs show, as the consumer test (test/consumer/run.mjs) and the
// footprint report (scripts/install-footprint.mjs) use them. One entry per combination: adding a
// package is one more line here and an app folder under test/consumer/apps.
//
// - install: what the README's `npm install` names, installed by name: `@aqm/*` from the test's local
//   registry (this run's `changeset publish`), everything else proxied from the npm registry
//   (scripts/install-footprint.mjs installs the packed tarballs instead).
// - node: the Node line the project is installed and run with (the 3.x SDK line needs Node 22.15+).
// - apps: files in test/consumer/apps/<name>/, each run with `node <file>` (`--import`/`--require`
//   entries in `nodeArgs`), against the local service, itself installed by name. Each prints one
//   JSON line `{ "prompt": ..., "applicationId"?: ..., "traces"?: N }`: the test then looks for a
//   trace with that prompt in the application (the one it made, or the one printed), and with
//   `traces`, for exactly N of them.
// - absent: packages that must not be installed (`@aqm/auto` must not bring LangChain).
// - apps may also be { file, env, stderr }: `env` changes the app's environment (null: unset), and
//   `stderr` lists texts its stderr must contain ([]: stderr must be empty).
// - dedupe: run `npm dedupe` after the install, as the README says to.
// - duplicatesExpected: OpenTelemetry API packages the combination must have several copies of
//   (the case it tests).
// - duplicatesUnder: a second copy of an OpenTelemetry API package accepted below the named
//   package (a third-party pin we cannot change); any other second copy fails the install.
export const COMBOS = [
  {
    name: 'otel-sdk-2',
    install: [
      '@aqm/otel',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace-node',
    ],
    apps: ['processor.mjs', 'processor.cjs', 'serverless.cjs'],
  },
  {
    name: 'otel-sdk-3',
    node: 22,
    install: ['@aqm/otel', '@opentelemetry/api', '@opentelemetry/sdk-trace'],
    apps: ['processor.mjs', 'processor.cjs'],
  },
  {
    name: 'auto',
    install: ['@aqm/auto'],
    apps: [
      { file: 'app.mjs', nodeArgs: ['--import', '@aqm/auto/register'] },
      { file: 'app.cjs', nodeArgs: ['--require', '@aqm/auto/register'] },
    ],
    absent: ['@langchain/core', 'langsmith', 'js-tiktoken'],
    // @traceloop/instrumentation-anthropic 0.27 depends on @opentelemetry/instrumentation ^0.203,
    // which pins its own api-logs. Only that instrumentation's base class uses it, and copies of
    // api-logs share the global logger provider (by compatibility version), so nothing is lost.
    duplicatesUnder: { '@opentelemetry/api-logs': '@traceloop/instrumentation-anthropic' },
  },
  {
    // The zero-code path with a real model client (examples/zero-code), against the fake model.
    name: 'auto-openai',
    install: ['@aqm/auto', 'openai', '@aqm/fake-llm'],
    apps: [
      { file: 'app.mjs', nodeArgs: ['--import', '@aqm/auto/register'] },
      { file: 'app.cjs', nodeArgs: ['--require', '@aqm/auto/register'] },
    ],
    duplicatesUnder: { '@opentelemetry/api-logs': '@traceloop/instrumentation-anthropic' },
  },
  {
    // Zero-code with the Anthropic SDK's current major (1.x: no legacy Completions API).
    name: 'auto-anthropic',
    install: ['@aqm/auto', '@anthropic-ai/sdk@1', '@aqm/fake-llm'],
    apps: [
      { file: 'app.mjs', nodeArgs: ['--import', '@aqm/auto/register'] },
      { file: 'app.cjs', nodeArgs: ['--require', '@aqm/auto/register'] },
    ],
    duplicatesUnder: { '@opentelemetry/api-logs': '@traceloop/instrumentation-anthropic' },
  },
  {
    // Zero-code with LangChain's OpenAI chat model: the chain's trace and the `openai` call in one.
    name: 'auto-langchain-openai',
    // @langchain/openai 1.5.8: the last release for Node 20 (later ones ask for Node 22).
    install: ['@aqm/auto', 'openai', '@langchain/core', '@langchain/openai@1.5.8', '@aqm/fake-llm'],
    apps: [
      { file: 'chain.mjs', nodeArgs: ['--import', '@aqm/auto/register'] },
      { file: 'chain.cjs', nodeArgs: ['--require', '@aqm/auto/register'] },
    ],
    duplicatesUnder: { '@opentelemetry/api-logs': '@traceloop/instrumentation-anthropic' },
  },
  {
    name: 'express',
    install: [
      '@aqm/express',
      '@opentelemetry/api',
      '@aqm/otel',
      '@opentelemetry/sdk-trace-node',
      '@aqm/client',
      'express',
    ],
    apps: ['app.mjs', 'app.cjs'],
  },
  {
    name: 'langchain',
    install: [
      '@aqm/langchain',
      '@aqm/otel',
      '@langchain/core',
      '@opentelemetry/api',
      '@opentelemetry/sdk-trace-node',
    ],
    apps: ['chain.mjs', 'chain.cjs'],
  },
  {
    // NodeSDK exporting to another OTLP backend with AQM beside it (examples/nodesdk-keep-exporter),
    // the 0.223 line pinned: both setups of the README, no logging set up, nothing on stderr. npm
    // places api-logs 0.223.1 on top for instrumentation-openai's ^0.223.0, beside the 0.223.0 that
    // sdk-node and @opentelemetry/instrumentation pin (the content is then lost, and @aqm/otel says
    // so); `npm dedupe`, the fix the README and that line give, leaves one copy.
    name: 'nodesdk-keep-exporter',
    dedupe: true,
    install: [
      '@aqm/otel',
      '@opentelemetry/api@~1.9.0', // sdk-node 0.223's peer range stops below 1.10
      '@opentelemetry/sdk-node@0.223.0',
      '@opentelemetry/sdk-trace-base@2.12.0',
      '@opentelemetry/exporter-trace-otlp-http@0.223.0',
      '@opentelemetry/instrumentation-openai@0.21.0',
      'openai@6',
      '@aqm/fake-llm',
    ],
    apps: [
      { file: 'register.mjs', env: { OTEL_LOG_LEVEL: null }, stderr: [] },
      { file: 'processors.cjs', env: { OTEL_LOG_LEVEL: null }, stderr: [] },
    ],
  },
  {
    // The otel README's optional `npm install @opentelemetry/sdk-logs @opentelemetry/api-logs` once a
    // patch newer than sdk-node's pin is out: npm nests sdk-node's and @opentelemetry/instrumentation's
    // pinned api-logs under each, so the instrumentation's logger never reaches the registered
    // provider. The content is lost; with no logging set up, stderr must say why and how to fix it.
    name: 'nodesdk-api-logs-split',
    install: [
      '@aqm/otel',
      '@opentelemetry/api@~1.9.0', // sdk-node 0.223's peer range stops below 1.10
      '@opentelemetry/sdk-node@0.223.0',
      '@opentelemetry/instrumentation-openai@0.21.0',
      '@opentelemetry/sdk-logs@0.223.1',
      '@opentelemetry/api-logs@0.223.1',
      'openai@6',
      '@aqm/fake-llm',
    ],
    duplicatesExpected: ['@opentelemetry/api-logs'],
    apps: [
      {
        file: 'app.cjs',
        env: { OTEL_LOG_LEVEL: null },
        stderr: [
          'copies of @opentelemetry/api-logs are installed: 0.223.1 (the app, @aqm/otel), ',
          '`npm install @opentelemetry/api-logs@0.223.0 @opentelemetry/sdk-logs@0.223.0`',
          'the registered LoggerProvider has an AqmLogRecordProcessor, but no gen_ai log record reached it',
        ],
      },
    ],
  },
  { name: 'client', install: ['@aqm/client'], apps: ['example.mjs', 'example.cjs'] },
  { name: 'cli', install: ['@aqm/cli'], apps: ['commands.mjs'] },
  { name: 'forwarder', install: ['@aqm/forwarder'], apps: ['forward.mjs', 'forward.cjs'] },
];
