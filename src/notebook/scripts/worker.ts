// The script engine's own thread (bundled as dist/scriptWorker.js): QuickJS runs here, so a script
// stuck inside one native operation (a 1 MB string repeated in a loop, an ArrayBuffer bomb), which the
// engine's interrupt handler cannot stop between bytecode steps, never blocks the editor or the CLI;
// the host (workerHost.ts) ends this thread at the time limit instead. It keeps one engine per
// limits for the scripts that follow, and makes the next script's context as soon as it has answered,
// while the host sends the cell's request.
import { parentPort } from 'node:worker_threads';
import { ScriptEngine } from './engine';
import type { ScriptLimits } from '../../core/scriptLimits';
import { workerRequestSchema, type WorkerMessage } from './workerProtocol';

const port = parentPort;
if (!port) throw new Error('scriptWorker.js runs as a worker thread of the script host, not on its own.');

let engine: { key: string; created: Promise<ScriptEngine> } | undefined;
const post = (message: WorkerMessage) => port.postMessage(message);

function engineFor(limits: ScriptLimits): Promise<ScriptEngine> {
  const key = JSON.stringify(limits);
  if (engine?.key !== key) {
    void engine?.created.then((e) => e.dispose());
    engine = { key, created: ScriptEngine.create(limits) };
  }
  return engine.created;
}

/**
 * After the answer is posted: a message from the host arriving meanwhile waits for it (~0.2 ms; the
 * first, with the prelude's realm, ~20 ms). When warming, a rehearsal script runs first.
 */
function prepareNext(ready: ScriptEngine, rehearse = false): void {
  setImmediate(() => {
    try {
      if (rehearse) ready.rehearse();
      ready.prepare();
    } catch {
      // The next run makes its context itself and reports what fails there.
    }
  });
}

port.on('message', (raw: unknown) => {
  void (async () => {
    const request = workerRequestSchema().parse(raw);
    try {
      const ready = await engineFor(request.limits);
      if (request.kind === 'warm') return prepareNext(ready, true);
      // The host starts counting when it sends a script to an engine it knows is loaded: only a
      // change from what it assumes is posted (one message fewer per script).
      let running = request.clockRunning;
      const clock = (now: boolean) => {
        if (now !== running) post({ kind: 'clock', running: (running = now) });
      };
      const run = ready.run(request.source, request.input, clock);
      post({ kind: 'done', run });
      prepareNext(ready);
    } catch (e) {
      engine = undefined;
      if (request.kind === 'run') post({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  })();
});
