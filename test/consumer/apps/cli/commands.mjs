// @aqm/cli README's "Try it against the local service": the installed `aqm` bin (node_modules/.bin),
// AQM_BASE_URL and AQM_API_KEY from the environment.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const aqm = (...args) => execFileSync(join('node_modules', '.bin', 'aqm'), args, { encoding: 'utf8' }).trim();
const app = aqm(
  'apps',
  'create',
  `support-bot-${Date.now()}-${process.pid}`,
  '--description',
  'Answers customer questions',
);
aqm('monitoring', 'set', app, '--metric', 'answer_relevance:threshold=0.7', '--metric', 'toxicity');
aqm('guardrails', 'set', app, '--enable', '--input', 'prompt-injection:fail', '--output', 'pii:mask');
const prompt = `What is your refund policy? (cli, ${process.pid})`;
const now = new Date().toISOString();
const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
writeFileSync(
  'traces.json',
  JSON.stringify({
    traces: [
      {
        traceId,
        prompt,
        response: 'Refunds within 30 days.',
        startTime: now,
        endTime: now,
        status: 'success',
      },
    ],
  }),
);
aqm('evaluations', 'submit', app, '--file', 'traces.json');
aqm('traces', 'get', app, traceId);
console.log(JSON.stringify({ prompt, applicationId: app }));
