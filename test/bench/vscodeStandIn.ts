// A stand-in for the 'vscode' module, so a benchmark can run editor code (src/editor/…) in a plain
// node process. It implements only what that code touches on the measured path, and does the work
// the real one does on the extension host's thread where that matters: an output channel's text is
// appended to a file, as VS Code's desktop extension host does (its output channels are file-backed;
// the window reads the file). Anything else is absent, so a new dependency fails loudly.
//
// Import this module before any module that imports 'vscode': the bundle evaluates modules in
// import order, and the hook below must be in place before their require('vscode') runs.
import { createWriteStream, type WriteStream } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

/** An output channel whose text goes to `<outputDir>/<name>.log` (or nowhere while outputDir is unset). */
export class StandInOutputChannel {
  readonly file: string | undefined;
  appends = 0;
  chars = 0;
  private readonly stream: WriteStream | undefined;
  private ended: Promise<void> | undefined;

  constructor(readonly name: string) {
    this.file = standIn.outputDir ? path.join(standIn.outputDir, `${name.replace(/[^\w.-]+/g, '_')}.log`) : undefined;
    this.stream = this.file ? createWriteStream(this.file) : undefined;
  }

  append(text: string): void {
    this.appends++;
    this.chars += text.length;
    if (!this.ended) this.stream?.write(text);
  }

  appendLine(text: string): void {
    this.append(text + '\n');
  }

  show(): void {}
  hide(): void {}
  clear(): void {}

  /** Closes the file; resolves when everything appended before is in it (later appends are only counted). */
  closed(): Promise<void> {
    const s = this.stream;
    this.ended ??= s ? new Promise((resolve, reject) => s.end((e?: Error | null) => (e ? reject(e) : resolve()))) : Promise.resolve();
    return this.ended;
  }

  dispose(): void {
    void this.closed();
  }
}

class StandInStatusBarItem {
  name = '';
  text = '';
  tooltip = '';
  command = '';
  updates = 0;
  show(): void {
    this.updates++;
  }
  hide(): void {}
  dispose(): void {}
}

/** vscode.EventEmitter's contract: `event(listener)` returns a disposable; `fire` calls listeners in order. */
class StandInEventEmitter<T> {
  private listeners: ((e: T) => unknown)[] = [];
  readonly event = (listener: (e: T) => unknown) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** What the stand-in created, for the benchmark to read back. */
export const standIn: { outputDir: string | undefined; outputChannels: StandInOutputChannel[]; statusBarItems: StandInStatusBarItem[] } = {
  outputDir: undefined,
  outputChannels: [],
  statusBarItems: [],
};

const vscodeStandIn = {
  window: {
    createOutputChannel(name: string): StandInOutputChannel {
      const c = new StandInOutputChannel(name);
      standIn.outputChannels.push(c);
      return c;
    },
    createStatusBarItem(): StandInStatusBarItem {
      const item = new StandInStatusBarItem();
      standIn.statusBarItems.push(item);
      return item;
    },
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
  EventEmitter: StandInEventEmitter,
  env: { appName: 'Visual Studio Code' },
};

// Module._load is how require() resolves a name; it is not in @types/node, hence the narrow cast.
const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = loader._load;
loader._load = function (this: unknown, request: string, ...rest: unknown[]): unknown {
  return request === 'vscode' ? vscodeStandIn : load.call(this, request, ...rest);
};
