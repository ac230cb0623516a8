import { describe, expect, it } from 'vitest';
import { aqmDiag } from '../src/diag.js';
import { DISK_NOTICE_INTERVAL_MS, SpillReports } from '../src/spill/spill-reports.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { makeRecord } from './export-helpers/records.js';
import { API_KEY } from './export-helpers/sender-setup.js';
import { withSpillOutage } from './export-helpers/spill-outage.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';

const WRITING = /^Writing traces to persistDir /;
const DELIVERED = /^Delivered \d+ trace\(s\) from persistDir /;

function reportsWithClock(dir = '/var/lib/app/aqm-spill') {
  const logger = new CaptureLogger();
  const clock = { now: 0 };
  const reports = new SpillReports(logger, dir, () => clock.now);
  const said = (pattern: RegExp) => logger.at('warn').filter((line) => pattern.test(line));
  return { logger, clock, reports, said };
}

describe('SpillReports: the lines that say traces went to disk and came back', () => {
  it('says a spell of writing once, with how many, where and why, and its end with how many were delivered', () => {
    const { reports, said } = reportsWithClock();
    reports.wrote(7, 'the queue in memory is full (maxQueueTraces or maxQueueBytes)');
    reports.wrote(50, 'the queue in memory is full (maxQueueTraces or maxQueueBytes)');
    reports.wrote(3, 'they were not delivered by shutdown');
    expect(said(WRITING)).toEqual([
      'Writing traces to persistDir /var/lib/app/aqm-spill (the queue in memory is full (maxQueueTraces or ' +
        'maxQueueBytes)): 7 so far. They are sent from there once the service takes them, by this process ' +
        'or the next one on the folder; stats().disk counts what is written and sent back',
    ]);
    expect(reports.writtenTraces).toBe(60);

    reports.replayed(50, 0);
    reports.replayed(8, 2);
    expect(said(DELIVERED)).toEqual([]); // not before the disk is emptied
    reports.emptied();
    reports.emptied(); // nothing new read back: nothing to say
    expect(said(DELIVERED)).toEqual([
      'Delivered 58 trace(s) from persistDir /var/lib/app/aqm-spill (2 more read back were dropped; ' +
        'stats().droppedTraces says why); nothing waits there any more',
    ]);
    expect(reports.deliveredTraces).toBe(58);
  });

  it('a flapping service: at most one "writing" line per interval, and the end of each said spell always said', () => {
    const { reports, clock, said } = reportsWithClock();
    const spell = (written: number, delivered: number) => {
      reports.wrote(written, undefined);
      clock.now += 1000;
      reports.replayed(delivered, 0);
      reports.emptied();
      clock.now += 29_000;
    };
    for (let i = 0; i < 10; i += 1) spell(4, 4); // ten 30 s spells: 5 minutes
    expect(said(WRITING)).toHaveLength(1);
    expect(said(DELIVERED)).toEqual([
      expect.stringMatching(/^Delivered 4 trace\(s\)/), // the end of the spell that was said
    ]);
    // The interval has passed: the next spell is said with its own count, and its end with what was
    // delivered since the last such line (the nine held-back spells add up into it).
    expect(clock.now).toBeGreaterThanOrEqual(DISK_NOTICE_INTERVAL_MS);
    spell(5, 5);
    expect(said(WRITING)).toHaveLength(2);
    expect(said(WRITING)[1]).toContain('(they could not be delivered or kept in memory): 5 so far');
    expect(said(DELIVERED)[1]).toMatch(/^Delivered 41 trace\(s\)/);
    expect(reports.writtenTraces).toBe(45);
    expect(reports.deliveredTraces).toBe(45);
  });

  it('a long spell held back by the interval is said at a later write once the interval allows', () => {
    const { reports, clock, said } = reportsWithClock();
    reports.wrote(1, undefined);
    reports.replayed(1, 0);
    reports.emptied();
    clock.now += 60_000;
    reports.wrote(10, undefined); // a new spell a minute later: held back
    expect(said(WRITING)).toHaveLength(1);
    clock.now = DISK_NOTICE_INTERVAL_MS;
    reports.wrote(20, undefined);
    reports.wrote(30, undefined);
    expect(said(WRITING)).toHaveLength(2);
    expect(said(WRITING)[1]).toContain(': 30 so far.'); // the whole spell up to that write
  });

  it('files left by an earlier process: the replay that empties the disk is said though this process wrote nothing', () => {
    const { reports, said } = reportsWithClock();
    reports.replayed(400, 0);
    reports.emptied();
    expect(said(WRITING)).toEqual([]);
    expect(said(DELIVERED)).toEqual([
      'Delivered 400 trace(s) from persistDir /var/lib/app/aqm-spill; nothing waits there any more',
    ]);
  });

  it('shows control characters of the folder as escapes, whatever logger prints the line', () => {
    const { reports, said } = reportsWithClock('/tmp/spill\n@aqm/otel: forged\u001b[31m');
    reports.wrote(2, undefined);
    reports.replayed(2, 0);
    reports.emptied();
    for (const line of [...said(WRITING), ...said(DELIVERED)]) {
      expect(line).toContain('/tmp/spill\\u000a@aqm/otel: forged\\u001b[31m');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may pass
      expect(line).not.toMatch(/[\u0000-\u001f]/);
    }
    expect(said(WRITING)).toHaveLength(1);
    expect(said(DELIVERED)).toHaveLength(1);
  });
});

describe('SpillReports with no logging set up', () => {
  const { stderrLines } = withServiceAndStderr();

  it('prints each line on stderr, the end of a said spell even when the same kind was printed a moment ago', () => {
    const clock = { now: 0 };
    const reports = new SpillReports(aqmDiag, '/srv/spill', () => clock.now);
    reports.replayed(3, 0); // files of an earlier process
    reports.emptied();
    clock.now += DISK_NOTICE_INTERVAL_MS;
    reports.wrote(6, 'they were not delivered by shutdown');
    reports.wrote(6, 'they were not delivered by shutdown');
    reports.replayed(12, 0);
    reports.emptied(); // owed: printed although a "delivered" line went out a moment ago (wall clock)
    expect(stderrLines()).toEqual([
      '@aqm/otel: Delivered 3 trace(s) from persistDir /srv/spill; nothing waits there any more\n',
      '@aqm/otel: Writing traces to persistDir /srv/spill (they were not delivered by shutdown): 6 so far. ' +
        'They are sent from there once the service takes them, by this process or the next one on the ' +
        'folder; stats().disk counts what is written and sent back\n',
      '@aqm/otel: Delivered 12 trace(s) from persistDir /srv/spill; nothing waits there any more\n',
    ]);
  });
});

describe('DiskSpill behind a TraceSender: an outage, then recovery', () => {
  const { service, dir, recover, senderOverSpill } = withSpillOutage('aqm-spill-notices-');

  it('says once that traces go to disk (how many, where, why) and, once replayed, how many were delivered', async () => {
    const logger = new CaptureLogger();
    const record = makeRecord();
    const { spill, sender, client, time } = await senderOverSpill(record, logger);
    const first = [record, ...Array.from({ length: 9 }, () => makeRecord())];
    const tickets = first.map((r) => sender.enqueue(r));
    expect(await Promise.all(tickets.slice(3))).toEqual(Array(7).fill('persisted'));
    // Later traces of the same outage go to disk without another line.
    const later = Array.from({ length: 5 }, () => makeRecord());
    expect(await Promise.all(later.map((r) => sender.enqueue(r)))).toEqual(Array(5).fill('persisted'));
    const writing = logger.at('warn').filter((line) => WRITING.test(line));
    expect(writing).toEqual([
      `Writing traces to persistDir ${dir()} (the queue in memory is full (maxQueueTraces or maxQueueBytes)): ` +
        '7 so far. They are sent from there once the service takes them, by this process or the next one ' +
        'on the folder; stats().disk counts what is written and sent back',
    ]);
    expect(spill.stats()).toMatchObject({ spilledTraces: 12, replayedTraces: 0, traces: 12 });

    recover();
    time.releaseAll(); // the in-memory batch is retried, and the service answers again
    await until(() => logger.at('warn').some((line) => DELIVERED.test(line)));
    expect(service().accepted.size).toBe(first.length + later.length);
    expect(logger.at('warn').filter((line) => DELIVERED.test(line))).toEqual([
      `Delivered 12 trace(s) from persistDir ${dir()}; nothing waits there any more`,
    ]);
    expect(spill.stats()).toMatchObject({ spilledTraces: 12, replayedTraces: 12, files: 0 });
    expect(logger.text).not.toContain(API_KEY);
    await sender.shutdown(1000);
    await spill.close();
    await client.close();
    expect(logger.at('warn').filter((line) => WRITING.test(line) || DELIVERED.test(line))).toHaveLength(2);
  });
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
