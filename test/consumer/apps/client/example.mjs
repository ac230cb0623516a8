// @aqm/client README's example: AQM_API_KEY and AQM_BASE_URL from the environment.
import { AqmClient, findOrCreateApplication } from '@aqm/client';

const client = new AqmClient();
try {
  const appId = await findOrCreateApplication(client, { name: `support-bot-${Date.now()}-${process.pid}` });
  const [metric] = await client.metrics.eval();
  await client.monitoring.update(appId, { metrics: [{ type: metric.name }] });
  const prompt = `What is your refund policy? (client, ESM, ${process.pid})`;
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
