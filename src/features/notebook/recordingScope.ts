// The scope of a recorded run (Record Run, Run from Recording: editor/notebook/recording.ts). One exchange hook
// stands for the whole extension host; it answers from a recording only inside a recorded run (an
// AsyncLocalStorage scope), so the Playground, the trees and other notebooks keep talking to the
// network while one notebook replays. The notebook controller's LISTEN tape reads the same scope.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setExchangeHook } from '../../core/httpExchange';
import type { Cassette, ListenTape } from '../../notebook/api';

const activeRecording = new AsyncLocalStorage<Cassette>();
let hookInstalled = false;

function installHook(): void {
  if (hookInstalled) return;
  hookInstalled = true;
  setExchangeHook((url, init, signal, next) => {
    const cassette = activeRecording.getStore();
    return cassette ? cassette.hook(url, init, signal, next) : next(url, init, signal);
  });
}

/** The LISTEN side of the same scope: a recorded run's messages, live everywhere else. */
export const recordingListenTape: ListenTape = {
  replayListen: (connection, channel) => activeRecording.getStore()?.replayListen(connection, channel),
  recordListen: (connection, channel, messages) => activeRecording.getStore()?.recordListen(connection, channel, messages),
};

/** Runs `fn` with its requests and LISTENs recorded into, or answered from, `cassette`. */
export function inRecordedRun<T>(cassette: Cassette, fn: () => Promise<T>): Promise<T> {
  installHook();
  return activeRecording.run(cassette, fn);
}
