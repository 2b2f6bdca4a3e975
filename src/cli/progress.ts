// Where the human-readable lines go. On a terminal a live status line shows the cell that is
// running (redrawn in place, cleared before each finished line); elsewhere (CI logs, pipes) only
// whole lines are written, so logs stay readable.

export interface LineSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const REDRAW_MS = 80;

export class Console {
  private status = '';
  private shown = false;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  readonly live: boolean;

  /** @param redact every line passes it (keys must never reach a log) */
  constructor(
    private readonly sink: LineSink,
    private readonly redact: (text: string) => string,
    live = sink.isTTY === true && process.env.CI === undefined && process.env.TERM !== 'dumb',
  ) {
    this.live = live;
  }

  /** A finished line (a cell's result, a notebook's header). */
  line(text: string): void {
    this.clear();
    this.sink.write(this.redact(text) + '\n');
    this.draw();
  }

  /** What is running now; shown only on a terminal. */
  setStatus(text: string): void {
    if (!this.live) return;
    this.status = this.redact(text);
    this.timer ??= setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
    this.draw();
  }

  /** Removes the live line for good (before the last summary line). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.status = '';
  }

  private clear(): void {
    if (!this.shown) return;
    this.sink.write('\r\x1b[2K');
    this.shown = false;
  }

  private draw(): void {
    if (!this.live || !this.status) return;
    const width = Math.max(20, (this.sink.columns ?? 80) - 1);
    const text = `${SPINNER[this.frame++ % SPINNER.length]} ${this.status}`;
    this.sink.write(`\r\x1b[2K${text.length > width ? text.slice(0, width - 1) + '…' : text}`);
    this.shown = true;
  }
}
