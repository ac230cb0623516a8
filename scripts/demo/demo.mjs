#!/usr/bin/env node
// `pnpm demo`: the whole product in one run, offline. Starts the local AQM service (in memory) and
// the fake model, creates an application with monitoring and guardrails, runs the express-openai
// example app through a few conversations (one sharing personal data, one prompt injection),
// flushes the traces, then prints what the service recorded.
import { randomBytes } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { startFakeLlm } from '@aqm/fake-llm';
import { startServer } from '@aqm/server';
import { sendChat, serve } from '../../examples/express-openai/chat-server.mjs';
import { setUpTracing } from '../../examples/express-openai/tracing.mjs';
import { describeError } from '../../examples/local-env/run-example.mjs';
import { checkDemo } from './checks.mjs';
import { collectRecords } from './collect.mjs';
import { configureDemoApplication, DEMO_GUARDRAILS } from './configuration.mjs';
import { DEMO_CONVERSATIONS } from './conversations.mjs';
import { renderReport } from './report.mjs';
import { heading, truncate } from './table.mjs';

// Generous: the run takes a second or two. Past it something hangs, and the demo says so.
const DEMO_TIMEOUT_MS = 120_000;

const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const maxWidth = process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS) || 120;
// One line per message, cut to the terminal width; leading indentation kept. Lines are joined by
// splitting, not by a /\s*[\r\n]+\s*/ pattern, which is quadratic on long runs of spaces in a reply.
const say = (text) => console.log(truncate(oneLineOf(text), maxWidth));
function oneLineOf(text) {
  const lines = text.split(/[\r\n]+/);
  if (lines.length === 1) return text;
  const last = lines.length - 1;
  const parts = lines.map((line, i) =>
    i === 0 ? line.trimEnd() : i === last ? line.trimStart() : line.trim(),
  );
  return parts.filter((part, i) => part !== '' || i === 0).join(' ');
}

async function runDemo(closers) {
  const start = new Date();
  const apiKey = `aqm_demo_${randomBytes(16).toString('hex')}`;
  const server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'demo' }] });
  closers.push(() => server.close());
  const llm = await startFakeLlm({ port: 0 });
  closers.push(() => llm.close());
  const client = new AqmClient({ apiKey, baseUrl: server.url });
  closers.push(() => client.close());

  const application = await client.applications.create({
    name: 'demo-support-bot',
    description: 'The Acme Travel support chat of the AQM demo',
  });
  const { metrics } = await configureDemoApplication(client, application.id);
  say(`AQM local service at ${server.url} (in memory), fake model at ${llm.url}`);
  say(`Application "${application.name}" (${application.id})`);
  say(`Monitoring: ${metrics.map((m) => m.name).join(', ')}`);
  const describeValidators = (validators) => validators.map((v) => `${v.type} → ${v.on_fail}`).join(', ');
  say(
    `Guardrails: input ${describeValidators(DEMO_GUARDRAILS.input_validators)}; ` +
      `output ${describeValidators(DEMO_GUARDRAILS.output_validators)}`,
  );
  say('  (recorded on each trace after the model answers: they report what they would do, they do not act)');

  const tracing = setUpTracing({ apiKey, baseUrl: server.url, applicationId: application.id });
  closers.push(() => tracing.shutdown());
  // After the tracing setup, so the OpenAI instrumentation sees `openai` load.
  const { createChatApp } = await import('../../examples/express-openai/app.mjs');
  const chat = await serve(
    createChatApp({ llm: { baseURL: llm.url, apiKey: 'fake-llm-needs-no-key', model: 'gpt-4o-mini' } }),
  );
  closers.push(() => chat.close());

  console.log(heading('Conversations with the example app (express-openai)', color));
  for (const { sessionId, about, messages } of DEMO_CONVERSATIONS) {
    say(`[${sessionId}] ${about}`);
    for (const message of messages) {
      say(`  user:      ${message}`);
      say(`  assistant: ${await sendChat(chat.url, { sessionId, message })}`);
    }
  }
  await chat.close(); // every request span has ended
  await tracing.flush(); // ... and every trace is in the service

  const records = await collectRecords(client, application.id, { start, end: new Date() });
  console.log(renderReport(records, { metrics, maxWidth, color }));

  const checks = checkDemo(records, DEMO_CONVERSATIONS);
  console.log(heading('Checks', color));
  for (const check of checks)
    say(`${check.problem ? 'FAILED' : 'ok    '} ${check.label}${check.problem ? `: ${check.problem}` : ''}`);
  const failed = checks.filter((check) => check.problem);
  if (failed.length > 0) throw new Error(`${failed.length} check(s) failed, see above`);
}

const watchdog = setTimeout(() => {
  console.error(`\nThe demo did not finish within ${DEMO_TIMEOUT_MS / 1000} s: something hangs.`);
  process.exit(1);
}, DEMO_TIMEOUT_MS);
watchdog.unref(); // never the reason the process stays up

const closers = [];
try {
  await runDemo(closers);
  console.log('\nDemo complete.');
} catch (error) {
  console.error(`\nThe demo failed: ${describeError(error)}`);
  process.exitCode = 1;
} finally {
  // In reverse order of starting. Each close is idempotent (the chat server is closed earlier too).
  for (const close of closers.reverse()) {
    try {
      await close();
    } catch (error) {
      console.error(`The demo could not stop cleanly: ${describeError(error)}`);
      process.exitCode = 1;
    }
  }
}
