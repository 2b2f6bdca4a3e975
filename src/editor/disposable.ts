// The one base for editor objects that own things to release: event subscriptions, emitters,
// status items, registrations. Each is handed to `register()` where it is made, so adding one
// cannot forget its dispose, and `dispose()` releases all of them once, newest first, a throwing
// one not stopping the rest. (VS Code's own code base has the same pattern: Disposable._register.)
import type * as vscode from 'vscode';

interface Releasable {
  dispose(): unknown;
}

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: Releasable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Owns `d` from now on; registered after dispose(), it is released at once. */
  protected register<T extends Releasable>(d: T): T {
    if (this.disposed) void d.dispose();
    else this.owned.push(d);
    return d;
  }

  /** Subclasses with more to release (timers, caches) override this and call super.dispose(). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const failures: unknown[] = [];
    for (const d of this.owned.splice(0).reverse()) {
      try {
        void d.dispose();
      } catch (e) {
        failures.push(e);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} disposables failed`);
  }
}
