// The conversation stores (the `get`/`save` interface of `ask`): `InMemoryConversationStore`,
// every client's default, and the browser's own storage, which also keeps halted runs:
// `IndexedDbConversationStore` and `WebStorageConversationStore`. The browser stores check
// their arguments here and do their storage work in browser-stores.js, loaded on their first
// call: a page that never uses them never downloads it.
// They are plain JavaScript, not part of the wasm module: every line of them is a call on a
// JavaScript or browser API, which costs a few bytes here and kilobytes as wasm and its glue
// (the in-memory store also saves a crossing into the module and a conversion of the
// transcript each way). The entries hand the in-memory one to the module as the default
// (register.js). The build ships it minified as
// pkg/stores.js and as CommonJS in pkg/stores.cjs. Each value is stored as plain JSON
// (what `JSON.stringify` keeps); a write replaces a whole record, so the last writer of an id
// wins and a reader never sees half of one.

import { ToolnexusError } from "./errors.js"

/** `typeof`, with `null` and arrays told apart. */
export function typeName(value) {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value
}

/** A readable message for anything thrown. */
export function errorText(thrown) {
  if (typeof thrown === "string") return thrown
  if (thrown === undefined || thrown === null) return String(thrown)
  if (typeof thrown !== "object" && typeof thrown !== "function") return String(thrown)
  try {
    if (typeof thrown.message === "string") {
      if (thrown.message) return thrown.message
      if (typeof thrown.name === "string") return thrown.name
    }
    return JSON.stringify(thrown) ?? String(thrown)
  } catch {
    return typeName(thrown)
  }
}

/** A `ToolnexusError` (errors.js) with `code` and `message` (the stores', httpTool's and createInProcessClient's). */
export function storeError(code, message) {
  return new ToolnexusError(code, message)
}

export function stringArg(value, what) {
  if (typeof value !== "string") throw storeError("invalid_argument", `${what} must be a string, got ${typeName(value)}`)
  return value
}

/** A plain-JSON copy of `value` (`undefined` and anything `JSON.stringify` refuses: `null`). */
function plain(value) {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? null : JSON.parse(text)
  } catch {
    return null
  }
}

export function messagesArg(messages, what) {
  const list = plain(messages)
  if (!Array.isArray(list)) throw storeError("invalid_argument", `${what}: messages must be an array, got ${typeName(messages)}`)
  return list
}

/** `messagesArg`'s check, as the JSON text of the copy (one `JSON.stringify`, no parse). */
function messagesText(messages, what) {
  let text
  try {
    text = JSON.stringify(messages)
  } catch {
    // refused below, as messagesArg refuses it
  }
  if (typeof text !== "string" || text[0] !== "[") throw storeError("invalid_argument", `${what}: messages must be an array, got ${typeName(messages)}`)
  return text
}

/** Whether `value` is a `Request` as `runWithAnswer` reads one. */
function isRequest(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false
  const { id, kind, prompt, url, expiresAt, data } = value
  const optional = (v, test) => v === undefined || v === null || test(v)
  return [id, kind, prompt].every((v) => typeof v === "string") &&
    optional(url, (v) => typeof v === "string") &&
    optional(expiresAt, (v) => typeof v === "string") &&
    optional(data, (v) => typeof v === "object" && !Array.isArray(v))
}

/** A plain-JSON copy of a halted `RunResult`, else `invalid_argument`. */
function haltedArg(result) {
  const json = plain(result)
  if (json !== null && isRequest(json.pending) && Array.isArray(json.messages)) return json
  throw storeError(
    "invalid_argument",
    `savePending: expected a halted RunResult (status "pending", with pending and messages), got ${typeName(result)}`,
  )
}

/** Runs `body` and gives its value or its throw as a Promise. */
export function settled(body) {
  try {
    return Promise.resolve(body())
  } catch (thrown) {
    return Promise.reject(thrown)
  }
}

function resolveStorage(storage) {
  if (storage !== undefined && typeof storage !== "string") return storage
  const name = { undefined: "localStorage", local: "localStorage", session: "sessionStorage" }[storage]
  if (name === undefined) {
    throw storeError(
      "invalid_argument",
      `WebStorageConversationStore: storage must be a Storage object, "local" or "session", got "${storage}"`,
    )
  }
  let found
  try {
    found = globalThis[name]
  } catch (thrown) {
    throw storeError("unsupported", `WebStorageConversationStore: ${name} is not available in this runtime: ${errorText(thrown)}`)
  }
  if (found === null || typeof found !== "object" || typeof found.setItem !== "function") {
    throw storeError("unsupported", `WebStorageConversationStore: ${name} is not available in this runtime`)
  }
  return found
}

/**
 * The default conversation store: transcripts in memory for the page's (or process's)
 * lifetime, kept as JSON text, so `get` and `save` copy. A client made without a `store`
 * option gets one of its own; one made here can be shared between clients.
 *
 * ```js
 * const store = new InMemoryConversationStore()
 * await store.save("t1", [{ role: "user", content: "hi" }])
 * await store.get("t1") // [{ role: "user", content: "hi" }]
 * ```
 */
export class InMemoryConversationStore {
  #saved = new Map()

  /** The transcript saved under `id`, or `undefined`. */
  get(id) {
    return settled(() => {
      const text = this.#saved.get(stringArg(id, "get: id"))
      return text === undefined ? undefined : JSON.parse(text)
    })
  }

  /** Saves a copy of `messages` under `id`. */
  save(id, messages) {
    return settled(() => {
      const key = stringArg(id, "save: id")
      this.#saved.set(key, messagesText(messages, "save"))
    })
  }
}

/** The browser stores' storage work (browser-stores.js), loaded once, on first use. */
let backends
export function loadBackends() {
  backends ??= import("./browser-stores.js").then((module) => module.backends({ errorText, idbFactory, storeError }), (thrown) => {
    backends = undefined
    throw storeError("store", `the browser stores could not be loaded: ${errorText(thrown)}`)
  })
  return backends
}

/** Each browser store's backend, once made (for `IndexedDbConversationStore.close()`). */
const madeBackends = new WeakMap()

/**
 * The public face of a browser store: each call checks and copies its arguments now, then
 * runs on the backend `make(module)` builds once the module is loaded.
 */
class LazyStore {
  #backend

  constructor(make) {
    this.#backend = loadBackends().then((module) => {
      const backend = make(module)
      madeBackends.set(this, backend)
      return backend
    })
    this.#backend.catch(() => {}) // reported by each call that needs it
  }

  /** `backend[method](...args)` once the backend exists, as a Promise. */
  #call(method, args) {
    return this.#backend.then((backend) => backend[method](...args))
  }

  /** The transcript saved under `id`, or `undefined`. */
  get(id) {
    return settled(() => this.#call("get", [stringArg(id, "get: id")]))
  }

  /** Saves a copy of `messages` under `id`. */
  save(id, messages) {
    return settled(() => this.#call("save", [stringArg(id, "save: id"), messagesArg(messages, "save")]))
  }

  /** Keeps a halted `RunResult` (status `"pending"`) under `key`, as plain JSON. */
  savePending(key, result) {
    return settled(() => this.#call("savePending", [stringArg(key, "savePending: key"), haltedArg(result)]))
  }

  /** The halted `RunResult` saved under `key`, or `undefined`. */
  loadPending(key) {
    return settled(() => this.#call("loadPending", [stringArg(key, "loadPending: key")]))
  }

  /** Forgets the halted run under `key` (nothing happens when there is none). */
  deletePending(key) {
    return settled(() => this.#call("deletePending", [stringArg(key, "deletePending: key")]))
  }
}

/**
 * A conversation store and a store of halted runs over Web Storage (`localStorage`,
 * `sessionStorage` or any object with `getItem`/`setItem`/`removeItem`), as JSON text under
 * `<prefix>conversation:<id>` and `<prefix>pending:<key>`. A full storage rejects with
 * `code: "quota_exceeded"`; a runtime without the storage throws `code: "unsupported"`.
 *
 * ```js
 * const store = new WebStorageConversationStore("session", "myapp:")
 * await store.save("t1", [{ role: "user", content: "hi" }]) // sessionStorage["myapp:conversation:t1"]
 * const client = createClient({ baseUrl, style: "openai", model, store })
 * ```
 */
export class WebStorageConversationStore extends LazyStore {
  /** `storage`: a `Storage` object, `"local"` (the default) or `"session"`; `prefix`: default `"toolnexus:"`. */
  constructor(storage, prefix) {
    const found = resolveStorage(storage)
    super((m) => new m.WebStorageBackend(found, prefix ?? "toolnexus:"))
  }
}

const IDB_MISSING =
  "IndexedDB is not available in this runtime (it exists in browsers and their workers, not in Node or Deno): use InMemoryConversationStore or a store of your own"

/** The runtime's `indexedDB`, else `unsupported`. */
export function idbFactory() {
  const factory = globalThis.indexedDB
  if (factory === null || typeof factory !== "object") throw storeError("unsupported", IDB_MISSING)
  return factory
}

/**
 * A conversation store and a store of halted runs in IndexedDB: they survive reloads, every
 * tab and worker of the origin shares them, and concurrent saves never mix (each write is one
 * `readwrite` transaction putting a whole record; the last writer of an id wins). Records live
 * under array keys `["conversation", id]` and `["pending", key]`. Throws `code: "unsupported"`
 * where there is no `indexedDB`; a full storage rejects with `code: "quota_exceeded"`.
 *
 * ```js
 * const store = new IndexedDbConversationStore()          // database "toolnexus", store "conversations"
 * const client = createClient({ baseUrl, style: "openai", model, store })
 * const r = await client.ask("Book it", { toolkit, id: "thread-1" })
 * if (r.status === "pending") await store.savePending("thread-1", r)
 * ```
 */
export class IndexedDbConversationStore extends LazyStore {
  /** A store over database `dbName` (default `"toolnexus"`), object store `storeName` (default `"conversations"`), created on first use. */
  constructor(dbName, storeName) {
    idbFactory()
    super((m) => new m.IndexedDbBackend(dbName ?? "toolnexus", storeName ?? "conversations"))
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    madeBackends.get(this)?.close()
  }
}
