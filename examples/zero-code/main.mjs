// Starts app.mjs the zero-code way, `node --import @aqm/auto/register app.mjs`, with the
// connection in environment variables, then prints what the service recorded. Against the local
// service and the fake model unless AQM_BASE_URL (and OPENAI_BASE_URL) are set.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  describeEnvironment,
  printRecordedTraces,
  runExample,
  startLocalEnvironment,
} from 'example-local-env';

// How many model calls app.mjs makes (one per question).
const APP_MODEL_CALLS = 3;

await runExample('zero-code', async () => {
  const env = await startLocalEnvironment({ name: 'example-zero-code' });
  try {
    console.log(describeEnvironment(env));
    console.log('$ node --import @aqm/auto/register app.mjs\n');
    const app = spawn(process.execPath, ['--import', '@aqm/auto/register', 'app.mjs'], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      // AQM_API_KEY, AQM_BASE_URL, AQM_APPLICATION_ID for @aqm/auto; OPENAI_* for the app.
      env: { ...process.env, ...env.childEnv() },
      stdio: 'inherit',
    });
    const [code, signal] = await once(app, 'exit');
    if (code !== 0) throw new Error(`app.mjs exited with ${code ?? signal}`);
    // @aqm/auto flushed the traces before app.mjs exited: they are in the service now.
    await printRecordedTraces(env, { expectedTraces: APP_MODEL_CALLS });
  } finally {
    await env.close();
  }
});
