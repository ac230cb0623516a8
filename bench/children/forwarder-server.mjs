// Forwarder child: one @aqm/forwarder process in front of the parent's loopback sink, alone in this
// process so that its CPU and RSS are its own. The parent marks the measured window ('window-start',
// 'window-end') and finally asks it to close ('close'), which delivers what it still holds.
//
// Config (BENCH_CONFIG): { sinkUrl, apiKey, applicationId, forwarder, deadlineMs }.
import { startForwarder } from '@aqm/forwarder';
import { childConfig, finish, nextMessage, send, watchdog } from '../lib/children.mjs';
import { rssSampler, startWindow } from '../lib/measure.mjs';

const config = childConfig();
watchdog(config.deadlineMs, 'forwarder child');

const forwarder = await startForwarder({
  apiKey: config.apiKey,
  baseUrl: config.sinkUrl,
  applicationId: config.applicationId,
  port: 0,
  ...config.forwarder,
});
await send({ type: 'ready', url: forwarder.url, grpcUrl: forwarder.grpcUrl });

await nextMessage('window-start');
const rss = rssSampler();
const window = startWindow();
await nextMessage('window-end');
const figures = window.end();
rss.stop();
await send({ type: 'window', ...figures, peakRss: rss.peak, stats: forwarder.stats() });

await nextMessage('close');
await forwarder.close();
await finish({ stats: forwarder.stats() });
