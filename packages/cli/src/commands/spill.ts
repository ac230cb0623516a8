import { existsSync } from 'node:fs';
import {
  inspectSpillFolder,
  purgeSpillFolder,
  SpillFolderRefused,
  type SpillFolderReport,
} from '@aqm/otel/spill';
import { printableLine } from '@aqm/wire';
import { type Command, Option } from 'commander';
import type { Output } from '../render/output.js';
import type { Session } from '../session.js';
import { CliUsageError } from '../usage-error.js';

interface SpillFlags {
  dir?: string;
  yes?: boolean;
}

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function age(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)}s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)}m`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)}h`;
  return `${(ms / 86_400_000).toFixed(1)}d`;
}

/** The folder from `--dir`, else AQM_PERSIST_DIR (as the app reads it). */
function folderOf(flags: SpillFlags, session: Session): string {
  const dir = flags.dir ?? session.io.env.AQM_PERSIST_DIR?.trim();
  if (dir === undefined || dir === '') {
    throw new CliUsageError(
      "Missing folder: pass --dir <path> or set AQM_PERSIST_DIR (the app's persistDir)",
    );
  }
  return dir;
}

/**
 * Runs a look at or purge of the folder; a folder whose `owners/` or `corrupt/` is a link or a file
 * is refused before anything is read through it or deleted: exit 2, saying why.
 */
async function onFolder<T>(dir: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SpillFolderRefused)) throw error;
    throw new CliUsageError(
      `${printableLine(dir)} is not a spill folder aqm can use: ${printableLine(error.reason)}. Nothing was changed.`,
    );
  }
}

function summary(report: SpillFolderReport, now: number): Array<[string, string]> {
  const claimed = report.owners.reduce((sum, owner) => sum + owner.traces, 0);
  return [
    ['folder', printableLine(report.dir)],
    [
      'waiting',
      `${report.waiting.traces} traces in ${report.waiting.files} files (${mib(report.waiting.bytes)})`,
    ],
    [
      'being sent',
      `${claimed} traces held by ${report.owners.filter((o) => o.alive).length} live process(es)`,
    ],
    ['write-ahead', writeAheadLine(report.owners)],
    ['oldest', report.oldestWrittenAt === undefined ? '-' : `${age(now - report.oldestWrittenAt)} ago`],
    ['corrupt', `${report.corrupt.files} files (${mib(report.corrupt.bytes)}) in corrupt/`],
  ];
}

/** The write-ahead logs (`persistMode: 'write-ahead'`): their traces are only known once replayed. */
function writeAheadLine(owners: SpillFolderReport['owners']): string {
  const of = (list: SpillFolderReport['owners']) =>
    list.reduce((sum, o) => ({ files: sum.files + o.logs.files, bytes: sum.bytes + o.logs.bytes }), {
      files: 0,
      bytes: 0,
    });
  const live = of(owners.filter((o) => o.alive));
  const gone = of(owners.filter((o) => !o.alive));
  if (live.files + gone.files === 0) return '-';
  return (
    `${live.files} log file(s) (${mib(live.bytes)}) of live process(es), ` +
    `${gone.files} (${mib(gone.bytes)}) of processes that are gone (replayed by the next process)`
  );
}

/**
 * Says that `purge` finds nothing to delete (an empty or missing folder, or only files a live
 * process is sending): on stdout as the command's result, on stderr with `--json` so stdout stays JSON.
 */
function nothingToPurge(out: Output, dir: string, exists: boolean): void {
  const text = `Nothing to purge in ${printableLine(dir)}${exists ? '' : ' (it does not exist)'}.`;
  if (out.json) out.note(text);
  else out.line(text);
}

/** What purge leaves: the files a live process has claimed are its to send. */
function leftToLive(traces: number): string {
  return `Left ${traces} trace(s) that a running process is sending; they leave the folder once the service accepts them.`;
}

/**
 * `aqm spill status|purge`: the backlog an app's `persistDir` holds (traces the service has not
 * accepted yet), and a way to empty it. Works on the folder only: no service call, no API key.
 */
export function registerSpillCommands(program: Command, session: Session): void {
  const spill = program
    .command('spill')
    .description("look at or empty an app's persistDir: traces kept on disk until the service accepts them");
  const dirOption = () => new Option('--dir <path>', 'the folder (default: AQM_PERSIST_DIR)');

  spill
    .command('status')
    .description('what the folder holds: traces waiting, being sent, the oldest, corrupt files')
    .addOption(dirOption())
    .action(async (flags: SpillFlags, command: Command) => {
      const dir = folderOf(flags, session);
      const report = await onFolder(dir, () => inspectSpillFolder(dir));
      const out = session.output(command);
      if (out.json) return out.printJson(report);
      if (!report.exists)
        return out.note(`${printableLine(dir)} does not exist: nothing was ever kept there.`);
      out.fields(summary(report, session.now().getTime()));
      if (report.owners.length > 0) {
        out.line();
        out.table(
          [
            { header: 'PROCESS', value: (o: SpillFolderReport['owners'][number]) => printableLine(o.id) },
            { header: 'PID', value: (o) => String(o.pid ?? '-') },
            { header: 'HOST', value: (o) => printableLine(o.host ?? '-') },
            { header: 'STATE', value: (o) => (o.alive ? 'alive' : 'gone (its files are taken over)') },
            { header: 'TRACES', value: (o) => String(o.traces) },
          ],
          report.owners,
        );
      }
    });

  spill
    .command('purge')
    .description(
      'delete the traces waiting in the folder (and those of processes that are gone, and corrupt/)',
    )
    .addOption(dirOption())
    .option('--yes', 'really delete (without it, only says what would be deleted)')
    .action(async (flags: SpillFlags, command: Command) => {
      const dir = folderOf(flags, session);
      const out = session.output(command);
      if (flags.yes !== true) {
        const report = await onFolder(dir, () => inspectSpillFolder(dir));
        const goneOwners = report.owners.filter((o) => !o.alive);
        const gone = goneOwners.reduce((sum, o) => sum + o.traces, 0);
        const files = report.waiting.files + goneOwners.reduce((sum, o) => sum + o.files, 0);
        const logs = goneOwners.reduce((sum, o) => sum + o.logs.files, 0);
        const live = report.owners.filter((o) => o.alive).reduce((sum, o) => sum + o.traces, 0);
        // Exit 2 asks for --yes; with nothing to delete there is nothing to confirm, so it is no failure.
        if (files + logs + report.corrupt.files === 0) {
          nothingToPurge(out, dir, report.exists);
          if (live > 0) out.note(leftToLive(live));
          return;
        }
        throw new CliUsageError(
          `purge would delete ${report.waiting.traces + gone} trace(s) the service has not accepted, ` +
            (logs > 0 ? `${logs} write-ahead log file(s) of processes that are gone, ` : '') +
            'and ' +
            `${report.corrupt.files} corrupt file(s), from ${printableLine(dir)}; add --yes to delete them` +
            (live > 0 ? ` (${live} trace(s) that a running process is sending would stay)` : ''),
        );
      }
      const result = await onFolder(dir, () => purgeSpillFolder(dir));
      if (out.json) return out.printJson(result);
      if (result.deleted.files + result.logsDeleted.files + result.corruptDeleted === 0) {
        nothingToPurge(out, dir, existsSync(dir));
      } else {
        const logs = result.logsDeleted;
        out.line(
          `Deleted ${result.deleted.traces} trace(s) in ${result.deleted.files} file(s) (${mib(result.deleted.bytes)}), ` +
            (logs.files > 0 ? `${logs.files} write-ahead log file(s) (${mib(logs.bytes)}), ` : '') +
            `and ${result.corruptDeleted} corrupt file(s) from ${printableLine(dir)}.`,
        );
      }
      if (result.leftToLiveProcesses.files > 0) out.note(leftToLive(result.leftToLiveProcesses.traces));
    });
}
