// What one script may use. The defaults hold for every front end; a setting or a CLI flag may
// change them. A script over a limit is stopped and its cell fails with a sentence naming it.

export interface ScriptLimits {
  /** Wall time of one script, its libraries' loading not counted (1 s). */
  timeMs: number;
  /** Memory of the engine, every value a script makes included (32 MB). */
  memoryBytes: number;
  /** Bytes of console.log / client.log output of one script (1 MB). */
  logBytes: number;
  /**
   * The engine's stack. 256 KB stops deep recursion inside QuickJS with "stack overflow" well
   * before its WebAssembly frames would overflow the host's own stack (512 KB did, crashing the
   * caller with a RangeError).
   */
  stackBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = {
  timeMs: 1000,
  memoryBytes: 32 * 1024 * 1024,
  logBytes: 1024 * 1024,
  stackBytes: 256 * 1024,
};

export type LimitKind = 'time' | 'memory' | 'stack' | 'log';

/** "it ran longer than 1 s (the time limit)": the end of a sentence saying why a script stopped. */
export function limitSentence(kind: LimitKind, limits: ScriptLimits): string {
  switch (kind) {
    case 'time':
      return `it ran longer than ${formatMs(limits.timeMs)}, the time limit of a script`;
    case 'memory':
      return `it used more than ${formatMb(limits.memoryBytes)} of memory, the memory limit of a script`;
    case 'stack':
      return 'its calls nested too deeply (stack overflow), past the stack limit of a script';
    case 'log':
      return `it logged more than ${formatMb(limits.logBytes)}, the output limit of a script`;
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${Math.round(bytes / 1024)} KB`;
}
