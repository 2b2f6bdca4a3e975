// The editor's one Disposable base (src/editor/disposable.ts imports only vscode's types, so it runs
// here without an editor): everything registered is released once, newest first, and one failing
// release does not keep the others alive.
import * as assert from 'node:assert/strict';
import { Disposable } from '../../../src/editor/disposable';

class Owner extends Disposable {
  own<T extends { dispose(): unknown }>(d: T): T {
    return this.register(d);
  }
  get gone(): boolean {
    return this.isDisposed;
  }
}

function tracked(log: string[], name: string, fail = false) {
  return {
    dispose() {
      log.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe('editor Disposable base', () => {
  it('releases what it owns once, newest first', () => {
    const log: string[] = [];
    const o = new Owner();
    o.own(tracked(log, 'emitter'));
    o.own(tracked(log, 'subscription'));
    o.dispose();
    o.dispose();
    assert.deepEqual(log, ['subscription', 'emitter']);
    assert.equal(o.gone, true);
  });

  it('a failing release does not stop the rest, and the failure is not swallowed', () => {
    const log: string[] = [];
    const o = new Owner();
    o.own(tracked(log, 'a'));
    o.own(tracked(log, 'b', true));
    o.own(tracked(log, 'c'));
    assert.throws(() => o.dispose(), /b failed/);
    assert.deepEqual(log, ['c', 'b', 'a']);
  });

  it('something registered after dispose is released at once (a late subscription cannot leak)', () => {
    const log: string[] = [];
    const o = new Owner();
    o.dispose();
    o.own(tracked(log, 'late'));
    assert.deepEqual(log, ['late']);
  });
});
