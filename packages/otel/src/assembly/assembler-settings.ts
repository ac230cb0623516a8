import {
  type AssemblerNotice,
  type AssemblerOptions,
  checkInteger,
  DEFAULT_MAX_LOGS_PER_TRACE,
  DEFAULT_RECENT_TRACE_IDS,
  describeValue,
  type TraceGroup,
  UNFINISHED_CALL_WAIT_MS,
} from './assembler-options.js';

/** {@link AssemblerOptions} checked, with their defaults filled in. */
export interface AssemblerSettings {
  idleMs: number;
  maxSpans: number;
  maxOpen: number;
  maxLogs: number;
  recentTraceIds: number;
  /** `undefined`: text values are not cut. */
  maxValueChars: number | undefined;
  /** `undefined`: open traces' bytes are not bounded. */
  maxOpenBytes: number | undefined;
  maxOpenModelCalls: number;
  /** How long a trace waits for a model call still open: at least `idleMs`. */
  heldWaitMs: number;
  onComplete: (group: TraceGroup) => void;
  onNotice: (kind: AssemblerNotice, message: string) => void;
  now: () => number;
}

/**
 * Checks the assembler's options in a fixed order, throwing a `TypeError` that names the first
 * bad one, and fills in the defaults.
 *
 * @example
 * const settings = readAssemblerSettings({ traceIdleMs: 5000, maxSpansPerTrace: 1000, maxOpenTraces: 1000, onComplete });
 */
export function readAssemblerSettings(options: AssemblerOptions): AssemblerSettings {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const idleMs = checkInteger('traceIdleMs', options.traceIdleMs, 1);
  const maxSpans = checkInteger('maxSpansPerTrace', options.maxSpansPerTrace, 1);
  const maxOpen = checkInteger('maxOpenTraces', options.maxOpenTraces, 1);
  const maxLogs = checkInteger('maxLogsPerTrace', options.maxLogsPerTrace ?? DEFAULT_MAX_LOGS_PER_TRACE, 1);
  const recentTraceIds = checkInteger(
    'recentTraceIds',
    options.recentTraceIds ?? DEFAULT_RECENT_TRACE_IDS,
    1,
  );
  if (typeof options.onComplete !== 'function') {
    throw new TypeError(`Expected \`onComplete\` to be a function, got ${describeValue(options.onComplete)}`);
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new TypeError(`Expected \`now\` to be a function, got ${describeValue(options.now)}`);
  }
  const maxValueChars =
    options.maxValueChars === undefined ? undefined : checkInteger('maxValueChars', options.maxValueChars, 1);
  const maxOpenBytes =
    options.maxOpenBytes === undefined ? undefined : checkInteger('maxOpenBytes', options.maxOpenBytes, 1);
  const maxOpenModelCalls = checkInteger('maxOpenModelCalls', options.maxOpenModelCalls ?? maxOpen, 1);
  const heldWaitMs = Math.max(
    idleMs,
    checkInteger('unfinishedCallWaitMs', options.unfinishedCallWaitMs ?? UNFINISHED_CALL_WAIT_MS, 1),
  );
  return {
    idleMs,
    maxSpans,
    maxOpen,
    maxLogs,
    recentTraceIds,
    maxValueChars,
    maxOpenBytes,
    maxOpenModelCalls,
    heldWaitMs,
    onComplete: options.onComplete,
    onNotice: options.onNotice ?? (() => {}),
    now: options.now ?? Date.now,
  };
}
