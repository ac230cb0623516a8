#!/usr/bin/env node
import { FakeLlmCliError, parseFakeLlmArgs, USAGE } from './cli-args.js';
import { startFakeLlm } from './start-fake-llm.js';

async function main(): Promise<void> {
  let command: ReturnType<typeof parseFakeLlmArgs>;
  try {
    command = parseFakeLlmArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof FakeLlmCliError)) throw error;
    process.stderr.write(`aqm-fake-llm: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  const llm = await startFakeLlm(command.options);
  process.stdout.write(
    `fake LLM listening: OpenAI baseURL ${llm.url}, Anthropic baseURL ${llm.anthropicUrl}\n`,
  );
  const stop = () => {
    llm.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`aqm-fake-llm: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
