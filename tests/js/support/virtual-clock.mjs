// The reference's virtual clock for the agent runtime (`{now(), setTimeout(fn, ms) → cancel}`):
// timers fire only when a test advances time, so nothing in a test depends on real timing.

export class VirtualClock {
  t = 0
  timers = []
  now() {
    return this.t
  }
  setTimeout(fn, ms) {
    const timer = { at: this.t + ms, fn, done: false }
    this.timers.push(timer)
    return () => {
      timer.done = true
    }
  }
  /** Fires every timer due by `now + ms`, in order. */
  advance(ms) {
    const target = this.t + ms
    for (;;) {
      const due = this.timers.filter((x) => !x.done && x.at <= target).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.t = due.at
      due.done = true
      due.fn()
    }
    this.t = target
  }
  /** How many timers are still pending. */
  get live() {
    return this.timers.filter((x) => !x.done).length
  }
  /** Resolves once `count` timers are pending (a wait's timeout, close's grace), so advancing reaches them. */
  async armed(count = 1) {
    while (this.live < count) await new Promise((r) => setImmediate(r))
  }
}
