/**
 * Runs a reconcile pass once after the current burst of changes (on the next macrotask), however many
 * changes asked for it, until stopped. Internal controllers work off it like level-triggered loops.
 */
export class ReconcileLoop {
  private pending: NodeJS.Immediate | undefined;
  private stopped = false;
  private readonly pass: () => void;

  constructor(pass: () => void) {
    this.pass = pass;
  }

  request(): void {
    if (this.stopped || this.pending !== undefined) return;
    this.pending = setImmediate(() => {
      this.pending = undefined;
      if (!this.stopped) this.pass();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.pending !== undefined) clearImmediate(this.pending);
    this.pending = undefined;
  }
}
