// `agents.AgentRuntime` (SPEC §7D): the reference's names and option keys over the module's
// runtime (`__AgentRuntime`, src/js/agents_runtime.rs), which runs the tree in Rust and is
// driven here by handle id. This file keeps what JavaScript sees: one `Handle` object per handle
// (its fields live views of the runtime), verbs that return a `VerbError` instead of throwing,
// and the definitions' `onSpawn` / `onClose` handed `Handle`s rather than ids.
import * as module from "#glue"
import { ToolnexusError } from "./errors.js"
import { InMemoryConversationStore, messagesArg, settled, stringArg, typeName } from "./stores.js"

/** What a verb says about a handle of another runtime (the core's sentence). */
const FOREIGN = "the handle is not of this runtime"
/** Only this module makes handles. */
const MAKE = Symbol("Handle")

/** The real clock: `Date.now()` and an unref'd `setTimeout`, so a timer never holds a process open. */
export const systemClock = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(fn, ms)
    timer?.unref?.()
    return () => clearTimeout(timer)
  },
})

/** Whether `x` is a verb's refusal `{error: string}`. */
export function isVerbError(x) {
  return typeof x === "object" && x !== null && "error" in x && typeof x.error === "string"
}

function warn(what, thrown) {
  console.warn(`[toolnexus] ${what} threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`)
}

/** One runtime's handle objects by id, made on first sight (a `task` spawn is seen late). */
class Table {
  native = null
  handles = new Map()
  handle(id) {
    let h = this.handles.get(id)
    if (h === undefined) {
      const cut = id.lastIndexOf("/")
      const parent = cut < 0 ? null : this.handle(id.slice(0, cut))
      h = new Handle(MAKE, this, id, parent)
      this.handles.set(id, h)
    }
    return h
  }
}

/**
 * A live agent of a runtime: its id is fixed, every other field reads the runtime now. Made by
 * `AgentRuntime.spawn` (and the `task` tool), never by hand.
 */
export class Handle {
  #table
  constructor(token, table, id, parent) {
    if (token !== MAKE) throw new ToolnexusError("invalid_argument", "Handle: handles are made by AgentRuntime.spawn")
    this.#table = table
    this.id = id
    this.parent = parent
    this.depth = parent === null ? 0 : parent.depth + 1
    Object.freeze(this)
  }
  /** The table it belongs to (the runtime's check that a handle is its own). */
  static tableOf(h) {
    return h instanceof Handle ? h.#table : undefined
  }
  #detail() {
    return this.#table.native.inspect(this.id)
  }
  /** `"idle" | "running" | "suspended" | "closed"`. */
  get state() {
    return this.#detail().state
  }
  /** Its children, in spawn order. */
  get children() {
    return this.#table.native.children(this.id).map((id) => this.#table.handle(id))
  }
  /** Its buffered inbox items. */
  get inbox() {
    return this.#table.native.inbox(this.id)
  }
  /** Tokens attributed to it (its own turns and its descendants'). */
  get usageTotal() {
    return this.#detail().tokens
  }
  /** Model calls it made itself, over its life. */
  get turnsTotal() {
    return this.#detail().turns
  }
  /** What is left of its token pool (`Infinity`: unlimited). */
  get pool() {
    return { tokens: this.#detail().poolTokens ?? Number.POSITIVE_INFINITY }
  }
  /** Its unanswered request while suspended. */
  get pendingRequest() {
    return this.#detail().pending
  }
}

/** The definitions with `onSpawn` / `onClose` handed `Handle` objects; anything else as given (the module checks it). */
function handing(registry, table) {
  if (registry === null || typeof registry !== "object" || Array.isArray(registry)) return registry
  const out = {}
  for (const [key, def] of Object.entries(registry)) {
    if (def === null || typeof def !== "object") {
      out[key] = def
      continue
    }
    const { onSpawn, onClose } = def
    out[key] = {
      ...def,
      onSpawn: typeof onSpawn !== "function" ? onSpawn : (view) => {
        try {
          const returned = onSpawn(table.handle(view.id))
          if (returned && typeof returned.then === "function") returned.then(undefined, (e) => warn("onSpawn", e))
        } catch (e) {
          warn("onSpawn", e)
        }
      },
      onClose: typeof onClose !== "function" ? onClose : (view, reason) => onClose(table.handle(view.id), reason),
    }
  }
  return out
}

/**
 * The default store (no `store` option): the runtime's own, in the module, so a turn loads and
 * saves its transcript without crossing to JavaScript. Read from JavaScript it behaves as an
 * `InMemoryConversationStore` (the same checks, copies in and out).
 */
class RuntimeStore extends InMemoryConversationStore {
  #native
  constructor(native) {
    super()
    this.#native = native
  }

  get(id) {
    return settled(() => this.#native.storeGet(stringArg(id, "get: id")))
  }

  save(id, messages) {
    return settled(() => {
      const key = stringArg(id, "save: id")
      this.#native.storeSave(key, messagesArg(messages, "save"))
    })
  }
}

function settledError(text) {
  return { text, isError: true, status: "error", turns: 0, totalTokens: 0 }
}

/** The saved state `AgentRuntime.restore` is building a runtime from (read by the constructor). */
let restoring

/**
 * The sub-agent runtime (SPEC §7D): a tree of handles under `root`, driven by six verbs
 * (`spawn`, `post`, `wake`, `wait`, `interrupt`, `close`), read through `list` / `inspect` and
 * the transition `trace`. A refused verb returns its reason; bad options throw a
 * `ToolnexusError` with code `"invalid_options"`. A suspended subtree is continued by
 * `resume(answer)`, also on a runtime rebuilt by `AgentRuntime.restore(options, savedState())`.
 */
export class AgentRuntime {
  #native
  #table
  /** A runtime over `options` (the constructor's) holding `state`, a `savedState()` as plain JSON. */
  static restore(options, state) {
    restoring = { state }
    try {
      return new AgentRuntime(options)
    } finally {
      restoring = undefined
    }
  }

  constructor(options) {
    const restored = restoring
    restoring = undefined
    if (options === null || typeof options !== "object") {
      throw new ToolnexusError("invalid_options", `AgentRuntime: options must be an object {registry, llm?, fetch?, clock?, store?, …}, got ${typeName(options)}`)
    }
    // Read by name: the lean module has no runtime, and the bundler need not say so at build time.
    const Native = Reflect.get(module, "__AgentRuntime")
    if (typeof Native !== "function") {
      throw new ToolnexusError("unsupported", "AgentRuntime: the sub-agent runtime is in the full build (toolnexus-wasm), not toolnexus-wasm/core")
    }
    const table = new Table()
    const own = options.store === undefined || options.store === null
    const native = { ...options, store: own ? undefined : options.store, registry: handing(options.registry, table) }
    table.native = restored === undefined ? new Native(native) : Native.restore(native, restored.state)
    this.#native = table.native
    this.#table = table
    /** The runtime's root handle (the parent of top-level spawns). */
    this.root = table.handle("root")
    /** The one conversation store of every handle (conversation id = handle id). */
    this.store = own ? new RuntimeStore(table.native) : options.store
    /** The clock every timer, timeout and deadline reads. */
    this.clock = options.clock ?? systemClock
  }

  /** `h`'s id when it is this runtime's handle, else `undefined`. */
  #id(h) {
    return Handle.tableOf(h) === this.#table ? h.id : undefined
  }

  /** The transition trace: the conformance artifact (a fresh copy each read). */
  get trace() {
    return this.#native.trace()
  }

  /** The most model calls that were ever in flight at once. */
  get maxObservedConcurrentTurns() {
    return this.#native.maxObservedConcurrentTurns()
  }

  spawn(parent, name, budget) {
    const id = this.#id(parent)
    if (id === undefined) return { error: FOREIGN }
    const spawned = this.#native.spawn(id, name, budget)
    return typeof spawned === "string" ? this.#table.handle(spawned) : spawned
  }

  post(h, item) {
    const id = this.#id(h)
    const error = id === undefined ? FOREIGN : this.#native.post(id, item)
    return error === undefined ? { ok: true } : { ok: false, error }
  }

  wake(h, prompt) {
    const id = this.#id(h)
    const error = id === undefined ? FOREIGN : this.#native.wake(id, prompt)
    return error === undefined ? { ok: true } : { ok: false, error }
  }

  wait(h, options) {
    const id = this.#id(h)
    if (id === undefined) return Promise.resolve(settledError(`wait refused: ${FOREIGN}`))
    if (options !== undefined && (options === null || typeof options !== "object")) {
      return Promise.reject(new ToolnexusError("invalid_argument", `wait: options must be {timeoutMs?, by?}, got ${typeName(options)}`))
    }
    let by
    if (options?.by !== undefined) {
      by = this.#id(options.by)
      if (by === undefined) return Promise.resolve(settledError(`wait refused: only the spawner may wait on ${id}`))
    }
    try {
      return this.#native.wait(id, options?.timeoutMs, by)
    } catch (e) {
      return Promise.reject(e)
    }
  }

  interrupt(h) {
    const id = this.#id(h)
    if (id !== undefined) this.#native.interrupt(id)
  }

  close(h, options) {
    const id = this.#id(h)
    if (id === undefined) return Promise.resolve()
    if (options !== undefined && (options === null || typeof options !== "object")) {
      return Promise.reject(new ToolnexusError("invalid_argument", `close: options must be {force?, reason?}, got ${typeName(options)}`))
    }
    try {
      return this.#native.close(id, options?.force === true, options?.reason)
    } catch (e) {
      return Promise.reject(e)
    }
  }

  list() {
    return this.#native.list()
  }

  resume(answer) {
    try {
      return this.#native.resume(answer)
    } catch (e) {
      return Promise.reject(e)
    }
  }

  savedState() {
    const running = this.#native.running()
    if (running !== undefined) {
      throw new ToolnexusError("invalid_argument", `savedState: the state is not saved while a turn runs (handle "${running}"); save between turns`)
    }
    return this.#native.savedState()
  }

  haltedCall(requestId) {
    if (typeof requestId !== "string") throw new ToolnexusError("invalid_argument", `haltedCall: requestId must be a string, got ${typeName(requestId)}`)
    const call = this.#native.haltedCall(requestId)
    return call === undefined ? undefined : { ...call, handle: this.#table.handle(call.handle) }
  }

  suspended() {
    return this.#native.suspended().map(({ handle, request }) => ({ handle: this.#table.handle(handle), request }))
  }

  inspect(h) {
    const id = this.#id(h)
    if (id === undefined) throw new ToolnexusError("invalid_argument", `inspect: ${FOREIGN}`)
    const detail = this.#native.inspect(id)
    if (detail.poolTokens === undefined) detail.poolTokens = Number.POSITIVE_INFINITY
    return detail
  }
}
