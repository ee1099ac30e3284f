// Work that must not overlap with itself (a dispatch cycle, a worker's claim round): a call while
// it runs asks for one more run right after it, and calls meanwhile share that one, so a wake-up
// is never lost and never doubles the work.
export class Coalescing {
  private running: Promise<void> | null = null
  private again = false

  constructor(private readonly work: () => Promise<void>) {}

  /** Runs the work, or (while it runs) resolves with the run in progress and runs it once more after. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = this.work().finally(() => {
      this.running = null
      if (this.again) {
        this.again = false
        void this.run()
      }
    })
    return this.running
  }

  /** The run in progress, if any (to wait for it when stopping). */
  get current(): Promise<void> | null {
    return this.running
  }
}
