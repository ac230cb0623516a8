// @aqm/client README's example, from CommonJS.
const { AqmClient, findOrCreateApplication } = require('@aqm/client');

async function main() {
  const client = new AqmClient();
  try {
    const appId = await findOrCreateApplication(client, { name: `support-bot-${Date.now()}-${process.pid}` });
    const prompt = `What is your refund policy? (client, CJS, ${process.pid})`;
    await client.evaluations.submit(appId, {
      traces: [
        {
          traceId: crypto.randomUUID().replaceAll('-', ''),
          prompt,
          response: 'You can get a refund within 30 days.',
          startTime: new Date(Date.now() - 1200),
          endTime: new Date(),
          status: 'success',
        },
      ],
    });
    console.log(JSON.stringify({ prompt, applicationId: appId }));
  } finally {
    await client.close();
  }
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
