// The conversation stores (the `get`/`save` interface of `ask`): `InMemoryConversationStore`,
// every client's default, and the browser's own storage, which also keeps halted runs:
// `IndexedDbConversationStore` and `WebStorageConversationStore`.
// They are plain JavaScript, not part of the wasm module: every line of them is a call on a
// JavaScript or browser API, which costs a few bytes here and kilobytes as wasm and its glue
// (the in-memory store also saves a crossing into the module and a conversion of the
// transcript each way). The entries hand the in-memory one to the module as the default
// (register.js). The build ships it minified as
// pkg/stores.js and as CommonJS in pkg/stores.cjs. Each value is stored as plain JSON
// (what `JSON.stringify` keeps); a write replaces a whole record, so the last writer of an id
// wins and a reader never sees half of one.

/** `typeof`, with `null` and arrays told apart. */
const typeName = (value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)

/** A readable message for anything thrown. */
function errorText(thrown) {
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

/** An `Error` with a stable `code` beside its message. */
function storeError(code, message) {
  const error = new Error(message)
  error.code = code
  return error
}

function stringArg(value, what) {
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

function messagesArg(messages, what) {
  const list = plain(messages)
  if (!Array.isArray(list)) throw storeError("invalid_argument", `${what}: messages must be an array, got ${typeName(messages)}`)
  return list
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
function settled(body) {
  try {
    return Promise.resolve(body())
  } catch (thrown) {
    return Promise.reject(thrown)
  }
}

const QUOTA_NAMES = ["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"]

/** Whether a thrown value says the storage is full, in any browser's spelling. */
const isQuota = (error) => QUOTA_NAMES.includes(error?.name) || error?.code === 22

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
      this.#saved.set(key, JSON.stringify(messagesArg(messages, "save")))
    })
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
export class WebStorageConversationStore {
  #storage
  #prefix

  /** `storage`: a `Storage` object, `"local"` (the default) or `"session"`; `prefix`: default `"toolnexus:"`. */
  constructor(storage, prefix) {
    this.#storage = resolveStorage(storage)
    this.#prefix = prefix ?? "toolnexus:"
  }

  #call(method, args) {
    const f = this.#storage[method]
    if (typeof f !== "function") throw storeError("invalid_argument", `the storage has no ${method}()`)
    return f.apply(this.#storage, args)
  }

  #read(key) {
    let text
    try {
      text = this.#call("getItem", [key])
    } catch (thrown) {
      throw storeError("store", `reading "${key}" failed: ${errorText(thrown)}`)
    }
    if (typeof text !== "string") return undefined
    try {
      return JSON.parse(text)
    } catch {
      throw storeError("store", `the value under "${key}" is not JSON`)
    }
  }

  #write(key, value, what) {
    const text = JSON.stringify(value)
    try {
      this.#call("setItem", [key, text])
    } catch (thrown) {
      if (isQuota(thrown)) {
        throw storeError(
          "quota_exceeded",
          `${what}: the storage is full: ${text.length} characters under "${key}" did not fit (${errorText(thrown)}); free space or use IndexedDbConversationStore`,
        )
      }
      throw storeError("store", `${what}: writing "${key}" failed: ${errorText(thrown)}`)
    }
  }

  /** The transcript saved under `id`, or `undefined`. */
  get(id) {
    return settled(() => {
      const key = `${this.#prefix}conversation:${stringArg(id, "get: id")}`
      const list = this.#read(key)
      if (list === undefined || Array.isArray(list)) return list
      throw storeError("store", `the value under "${key}" is not a transcript`)
    })
  }

  /** Saves `messages` under `id`. */
  save(id, messages) {
    return settled(() => {
      const key = `${this.#prefix}conversation:${stringArg(id, "save: id")}`
      this.#write(key, messagesArg(messages, "save"), "save")
    })
  }

  /** Keeps a halted `RunResult` (status `"pending"`) under `key`, as JSON text. */
  savePending(key, result) {
    return settled(() => {
      const name = `${this.#prefix}pending:${stringArg(key, "savePending: key")}`
      this.#write(name, haltedArg(result), "savePending")
    })
  }

  /** The halted `RunResult` saved under `key`, or `undefined`. */
  loadPending(key) {
    return settled(() => this.#read(`${this.#prefix}pending:${stringArg(key, "loadPending: key")}`))
  }

  /** Forgets the halted run under `key`. */
  deletePending(key) {
    return settled(() => {
      const name = `${this.#prefix}pending:${stringArg(key, "deletePending: key")}`
      try {
        this.#call("removeItem", [name])
      } catch (thrown) {
        throw storeError("store", `removing "${name}" failed: ${errorText(thrown)}`)
      }
    })
  }
}

const IDB_MISSING =
  "IndexedDB is not available in this runtime (it exists in browsers and their workers, not in Node or Deno): use InMemoryConversationStore or a store of your own"

function idbFactory() {
  const factory = globalThis.indexedDB
  if (factory === null || typeof factory !== "object") throw storeError("unsupported", IDB_MISSING)
  return factory
}

/** A failed IndexedDB operation as an `Error`: code `"quota_exceeded"` when storage is full. */
function idbFailure(what, error) {
  const name = typeof error?.name === "string" ? error.name : ""
  const detail = typeof error?.message === "string" ? error.message : typeof error === "string" ? error : ""
  return storeError(name === "QuotaExceededError" ? "quota_exceeded" : "store", `IndexedDB ${what} failed: ${name}: ${detail}`)
}

/**
 * Waits for `target`'s `ok` event (resolving with `target.result`) or one of `fails`
 * (rejecting with `target.error`, or the event's type when there is none).
 */
function idbEvent(target, ok, fails, what) {
  return new Promise((resolve, reject) => {
    const done = () => {
      for (const name of [ok, ...fails]) target[`on${name}`] = null
    }
    target[`on${ok}`] = () => {
      done()
      resolve(target.result)
    }
    const fail = (event) => {
      done()
      reject(idbFailure(what, target.error ?? event?.type))
    }
    for (const name of fails) target[`on${name}`] = fail
  })
}

/** Calls `target[method](...args)`, saying which method is missing. */
function idbCall(target, method, ...args) {
  if (typeof target?.[method] !== "function") throw storeError("store", `IndexedDB: ${method} is not a function`)
  return target[method](...args)
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
export class IndexedDbConversationStore {
  #dbName
  #storeName
  /** The connection being opened or open: a Promise of the `IDBDatabase`. */
  #opening = null
  /** The open connection, closed when another tab upgrades the database. */
  #db = null

  /** A store over database `dbName` (default `"toolnexus"`), object store `storeName` (default `"conversations"`), created on first use. */
  constructor(dbName, storeName) {
    idbFactory()
    this.#dbName = dbName ?? "toolnexus"
    this.#storeName = storeName ?? "conversations"
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    this.#opening = null
    const db = this.#db
    this.#db = null
    if (db) {
      db.onversionchange = null
      db.close()
    }
  }

  /** Opens the database with this store's object store in it, upgrading when it is missing. */
  async #open() {
    const factory = idbFactory()
    let version
    for (let attempt = 0; attempt < 8; attempt++) {
      const request = version === undefined ? idbCall(factory, "open", this.#dbName) : idbCall(factory, "open", this.#dbName, version)
      request.onupgradeneeded = () => {
        const db = request.result
        if (!db.objectStoreNames.contains(this.#storeName)) db.createObjectStore(this.#storeName)
      }
      const db = await idbEvent(request, "success", ["error"], "open")
      request.onupgradeneeded = null
      if (db.objectStoreNames.contains(this.#storeName)) {
        db.onversionchange = () => this.close()
        this.#db = db
        return db
      }
      version = (Number(db.version) || 1) + 1
      db.close()
    }
    throw storeError("store", "IndexedDB: could not create the object store")
  }

  #connection() {
    if (this.#opening === null) {
      const opening = this.#open()
      this.#opening = opening
      opening.catch(() => {
        if (this.#opening === opening) this.#opening = null
      })
    }
    return this.#opening
  }

  /** The object store in a new transaction, reopening once if the connection was closed. */
  async #objectStore(mode) {
    let tx
    try {
      tx = (await this.#connection()).transaction(this.#storeName, mode)
    } catch (thrown) {
      if (typeof thrown?.code === "string") throw thrown // opening failed: already a store error
      this.close()
      const db = await this.#connection()
      try {
        tx = db.transaction(this.#storeName, mode)
      } catch (again) {
        throw idbFailure("transaction", again)
      }
    }
    try {
      return [tx, tx.objectStore(this.#storeName)]
    } catch (thrown) {
      throw idbFailure("transaction", thrown)
    }
  }

  async #read(key) {
    const [, store] = await this.#objectStore("readonly")
    let request
    try {
      request = store.get(key)
    } catch (thrown) {
      throw idbFailure("read", thrown)
    }
    return idbEvent(request, "success", ["error"], "read")
  }

  async #write(key, record) {
    const [tx, store] = await this.#objectStore("readwrite")
    const what = record === undefined ? "delete" : "save"
    try {
      if (record === undefined) store.delete(key)
      else store.put({ ...record, savedAt: Date.now() }, key)
    } catch (thrown) {
      throw idbFailure(what, thrown)
    }
    await idbEvent(tx, "complete", ["error", "abort"], what)
  }

  /** The transcript saved under `id`, or `undefined`. */
  async get(id) {
    return (await this.#read(["conversation", stringArg(id, "get: id")]))?.messages
  }

  /** Saves `messages` under `id` in one transaction; resolves once it is committed. */
  async save(id, messages) {
    id = stringArg(id, "save: id")
    await this.#write(["conversation", id], { id, messages: messagesArg(messages, "save") })
  }

  /** Keeps a halted `RunResult` (status `"pending"`) under `key`, as plain JSON. */
  async savePending(key, result) {
    key = stringArg(key, "savePending: key")
    await this.#write(["pending", key], { key, result: haltedArg(result) })
  }

  /** The halted `RunResult` saved under `key`, or `undefined`. */
  async loadPending(key) {
    return (await this.#read(["pending", stringArg(key, "loadPending: key")]))?.result
  }

  /** Forgets the halted run under `key` (nothing happens when there is none). */
  async deletePending(key) {
    await this.#write(["pending", stringArg(key, "deletePending: key")], undefined)
  }
}
