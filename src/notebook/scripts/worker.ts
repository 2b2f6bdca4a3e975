// The script engine's own thread (bundled as dist/scriptWorker.js): QuickJS runs here, so a script
// stuck inside one native operation (a 1 MB string repeated in a loop, an ArrayBuffer bomb), which the
// engine's interrupt handler cannot stop between bytecode steps, never blocks the editor or the CLI;
// the host (workerHost.ts) ends this thread at the time limit instead. It keeps one engine per
// limits for the scripts that follow.
import { parentPort } from 'node:worker_threads';
import { ScriptEngine } from './engine';
import { workerRequestSchema, type WorkerMessage } from './workerProtocol';

const port = parentPort;
if (!port) throw new Error('scriptWorker.js runs as a worker thread of the script host, not on its own.');

let engine: { key: string; created: Promise<ScriptEngine> } | undefined;
const post = (message: WorkerMessage) => port.postMessage(message);

port.on('message', (raw: unknown) => {
  void (async () => {
    const request = workerRequestSchema.parse(raw);
    try {
      const key = JSON.stringify(request.limits);
      if (engine?.key !== key) {
        void engine?.created.then((e) => e.dispose());
        engine = { key, created: ScriptEngine.create(request.limits) };
      }
      const ready = await engine.created;
      const run = ready.run(request.source, request.input, (running) => post({ kind: 'clock', running }));
      post({ kind: 'done', run });
    } catch (e) {
      engine = undefined;
      post({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  })();
});
