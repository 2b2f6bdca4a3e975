// A small admission gate for expensive sandbox work (large embeddings requests): a few run at once,
// a few more wait their turn, and the rest are told to come back (503 with retry-after) instead of
// piling up until the process runs out of memory.
export const MAX_COMPUTING = 4;
export const MAX_WAITING = 8;

/** At most `computing` holders at once and `waiting` in line; acquire() is false when the line is full. */
export class Slots {
  private busy = 0;
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly computing = MAX_COMPUTING,
    private readonly waiting = MAX_WAITING,
  ) {}

  acquire(): Promise<boolean> {
    if (this.busy < this.computing) {
      this.busy++;
      return Promise.resolve(true);
    }
    if (this.line.length >= this.waiting) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => this.line.push(() => resolve(true)));
  }

  release(): void {
    const next = this.line.shift();
    if (next) next();
    else this.busy--;
  }
}
