// A script's syntax, checked without running it (for `api-workbench check` and the editor's
// diagnostics, which are synchronous and must not wait for the engine's thread): V8 compiles the
// script wrapped as the engine wraps it (engine.ts), and nothing is evaluated: `new vm.Script` only
// parses and compiles, so no line of the script runs in the host.
import { Script } from 'node:vm';

const FILE = 'script';

/** The first syntax error of a script's code: its 1-based line in the code and the parser's message. */
export function scriptSyntaxError(source: string): { line: number; message: string } | undefined {
  try {
    new Script(`(function(){${source}\n})`, { filename: FILE });
    return undefined;
  } catch (e) {
    if (!(e instanceof SyntaxError)) return undefined;
    const line = new RegExp(`^${FILE}:(\\d+)`).exec(e.stack ?? '')?.[1];
    return { line: line ? Number(line) : 1, message: e.message };
  }
}
