// The lease of a served A2A task: how a task whose process died is told from one still running,
// when several processes (or workers) serve one TaskStore. A task saved `submitted` or
// `working` carries `lease: {owner, expiresAt}`: the serving process's name and an ISO time a
// lease length ahead. While the run goes on, the owner saves the task again with a fresh expiry
// every third of the lease. A `GetTask` (in any process) that reads an unfinished task whose
// lease has expired saves and answers it `failed`, with a reason naming the owner, and the lease
// kept as `{owner, expiresAt, lapsed: true}`; an owner that was only slow and finishes later
// leaves that `failed` in place (a task that ended stays ended). The store has no
// compare-and-swap, so this is a rule for processes that stop, not a lock: the lease must be
// far longer than any pause of a live process, and the hosts' clocks roughly agree.

/** The default lease: 30 s, renewed every 10 s. */
export const DEFAULT_LEASE_MS = 30_000

const UNFINISHED = new Set(["submitted", "working"])

/**
 * The lease settings of an A2A profile: `{ms, owner}` (`ms` 0 when `config.lease` is 0: no
 * lease), the owner `config.owner` or a name made once per process.
 *
 * ```js
 * leaseOf({ lease: 5000, owner: "worker-a" }) // { ms: 5000, owner: "worker-a" }
 * ```
 */
export function leaseOf(config) {
  const ms = config?.lease ?? DEFAULT_LEASE_MS
  const pid = globalThis.process?.pid
  const owner = config?.owner ?? `${pid === undefined ? "agent" : `pid-${pid}`}-${crypto.randomUUID().slice(0, 8)}`
  return { ms, owner }
}

/** `task` with a lease of `lease.ms` from now (unchanged when leases are off). */
export function leased(task, lease, now = Date.now()) {
  if (lease.ms === 0) return task
  return { ...task, lease: { owner: lease.owner, expiresAt: new Date(now + lease.ms).toISOString() } }
}

/** Whether `task` is unfinished and its lease expired before `now`. */
export function lapsed(task, now = Date.now()) {
  if (!UNFINISHED.has(task?.status?.state) || typeof task.lease?.expiresAt !== "string") return false
  const expires = Date.parse(task.lease.expiresAt)
  return Number.isFinite(expires) && expires < now
}

/** The `failed` task a lapsed one becomes: the reason names the owner and when its lease ended. */
export function lapsedTask(task) {
  const { owner, expiresAt } = task.lease
  const text =
    `A2A task ${task.id} failed: the agent process running it (${owner}) stopped renewing its lease, ` +
    `which expired at ${expiresAt} while the task was ${task.status.state}; the process ended or lost its store. Send the message again.`
  return {
    id: task.id,
    ...(task.contextId === undefined ? {} : { contextId: task.contextId }),
    status: { state: "failed", message: { role: "agent", parts: [{ kind: "text", text }] } },
    lease: { owner, expiresAt, lapsed: true },
  }
}

/** Whether `stored` is the `failed` another process saved because `owner`'s lease lapsed. */
export function lapsedFrom(stored, owner) {
  return stored?.lease?.lapsed === true && stored.lease.owner === owner
}

/** A stored task as the wire shows it: without its lease. */
export function withoutLease(task) {
  if (task?.lease === undefined) return task
  const { lease: _lease, ...bare } = task
  return bare
}

/**
 * Renews `task`'s lease in `store` every third of the lease while it runs; the returned
 * function stops the renewals and resolves once none is in flight (so the final save is the
 * last write). A renewal that finds the task no longer ours and unfinished stops renewing.
 *
 * ```js
 * const stop = renewLease(store, working, lease)
 * const result = await run()
 * await stop()
 * await store.save(finished)
 * ```
 */
export function renewLease(store, task, lease) {
  if (lease.ms === 0) return async () => {}
  let stopped = false
  let inFlight = Promise.resolve()
  const renew = async () => {
    const stored = await store.get(task.id)
    if (stopped || stored?.status?.state !== task.status.state || stored.lease?.owner !== lease.owner) {
      stopped = true
      return
    }
    await store.save(leased(task, lease))
  }
  const timer = setInterval(() => {
    inFlight = inFlight.then(() => (stopped ? undefined : renew())).catch(() => {})
  }, Math.max(1, Math.floor(lease.ms / 3)))
  timer.unref?.() // Node: a renewal never keeps the process alive
  return async () => {
    stopped = true
    clearInterval(timer)
    await inFlight
  }
}
