import { parentPort } from 'node:worker_threads';
import { processTraces, type ScoringJob } from './evaluation-pipeline.js';

/** A job sent to a scoring worker, with its sequence number. */
export interface ScoringRequest {
  seq: number;
  job: ScoringJob;
}

/** A scoring worker's answer: the results and records of each trace, in order, or the failure. */
export type ScoringReply =
  | { seq: number; scored: Array<Pick<ReturnType<typeof processTraces>[number], 'results' | 'records'>> }
  | { seq: number; error: string };

// Scoring runs here, off the event loop that answers every tenant's requests (see scoring-pool.ts).
parentPort?.on('message', ({ seq, job }: ScoringRequest) => {
  let reply: ScoringReply;
  try {
    reply = { seq, scored: processTraces(job).map(({ results, records }) => ({ results, records })) };
  } catch (error) {
    reply = { seq, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
