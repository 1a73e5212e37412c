// `IndexedDbTaskStore`: served A2A tasks in the browser's IndexedDB, for a toolkit served from a
// page, a worker or a Service Worker (`toolkit.handler` in a `fetch` event). The IndexedDB work
// is here, bundled into the full entries, and not in browser-stores.js (which the conversation
// stores load with `import()` on first use): a Service Worker may not call `import()`, and a
// handler in one is where this store is most needed. One object store, keyed by task id, one
// whole task per record; each save is one `readwrite` transaction, so the last writer of a task
// wins and a reader never sees half of one.
import { idbFactory, settled, storeError, stringArg, typeName } from "./stores.js"

/** A failed IndexedDB request or transaction as a `ToolnexusError` (`quota_exceeded` when full). */
function failure(what, error) {
  const name = typeof error?.name === "string" ? error.name : ""
  const detail = typeof error?.message === "string" ? error.message : typeof error === "string" ? error : ""
  const code = name === "QuotaExceededError" ? "quota_exceeded" : "store"
  return storeError(code, `IndexedDbTaskStore: ${what} failed: ${name || "error"}${detail ? `: ${detail}` : ""}`)
}

/** Resolves with `target.result` on its `ok` event, rejects on `error` (and `abort`). */
function settle(target, ok, what) {
  return new Promise((resolve, reject) => {
    target[`on${ok}`] = () => resolve(target.result)
    target.onerror = (event) => reject(failure(what, target.error ?? event?.type))
    if (ok === "complete") target.onabort = (event) => reject(failure(what, target.error ?? event?.type))
  })
}

/** A plain-JSON copy of a task (what `JSON.stringify` keeps), else `invalid_argument`. */
function taskArg(task) {
  let copy
  try {
    copy = JSON.parse(JSON.stringify(task) ?? "null")
  } catch (thrown) {
    throw storeError("invalid_argument", `IndexedDbTaskStore.save: the task is not JSON: ${thrown?.message ?? thrown}`)
  }
  if (copy === null || typeof copy !== "object" || Array.isArray(copy) || typeof copy.id !== "string" || copy.id === "") {
    throw storeError("invalid_argument", `IndexedDbTaskStore.save: expected a task with a string id, got ${typeName(task)}`)
  }
  if (copy.status === null || typeof copy.status !== "object" || typeof copy.status.state !== "string") {
    throw storeError("invalid_argument", `IndexedDbTaskStore.save: task ${copy.id} has no status.state`)
  }
  return copy
}

/**
 * Served A2A tasks in IndexedDB (pages, workers, Service Workers): they survive reloads and a
 * worker's restart, and every tab and worker of the origin serving the same database answers
 * `GetTask` for the others' tasks. Pass it as `a2a.store` (or through `resolveStore`). Throws
 * `code: "unsupported"` where there is no `indexedDB` (Node, Deno: use `FileTaskStore`); a full
 * storage rejects with `code: "quota_exceeded"`.
 *
 * ```js
 * const store = new IndexedDbTaskStore()          // database "toolnexus-tasks", object store "tasks"
 * const handler = toolkit.handler({ client, a2a: { name: "desk", store } })
 * self.addEventListener("fetch", (e) => { if (new URL(e.request.url).pathname === "/") e.respondWith(handler(e.request)) })
 * ```
 */
export class IndexedDbTaskStore {
  #dbName
  #storeName
  /** The connection being opened or open: a Promise of the `IDBDatabase`, or null. */
  #opening = null

  /** Tasks in database `dbName` (default `"toolnexus-tasks"`), object store `storeName` (default `"tasks"`), made on first use. */
  constructor(dbName, storeName) {
    idbFactory()
    this.#dbName = dbName === undefined || dbName === null ? "toolnexus-tasks" : stringArg(dbName, "IndexedDbTaskStore: dbName")
    this.#storeName = storeName === undefined || storeName === null ? "tasks" : stringArg(storeName, "IndexedDbTaskStore: storeName")
  }

  /** The database's name. */
  get dbName() {
    return this.#dbName
  }

  /** Opens the database, creating the object store (with a version upgrade) when it is missing. */
  async #open() {
    let version
    for (let attempt = 0; attempt < 4; attempt++) {
      const request = version === undefined ? idbFactory().open(this.#dbName) : idbFactory().open(this.#dbName, version)
      request.onupgradeneeded = () => {
        const db = request.result
        if (!db.objectStoreNames.contains(this.#storeName)) db.createObjectStore(this.#storeName)
      }
      const db = await settle(request, "success", "open")
      if (db.objectStoreNames.contains(this.#storeName)) {
        db.onversionchange = () => this.close() // another tab upgrades: let it, reopen on the next call
        return db
      }
      version = db.version + 1
      db.close()
    }
    throw storeError("store", `IndexedDbTaskStore: could not create the object store "${this.#storeName}"`)
  }

  /** The object store in a new transaction of `mode`, opening (or reopening) the database as needed. */
  async #objectStore(mode) {
    if (this.#opening === null) {
      const opening = this.#open()
      this.#opening = opening
      opening.catch(() => this.#opening === opening && (this.#opening = null))
    }
    const db = await this.#opening
    try {
      const tx = db.transaction(this.#storeName, mode)
      return [tx, tx.objectStore(this.#storeName)]
    } catch (thrown) {
      throw failure("transaction", thrown)
    }
  }

  /** The task saved under `id`, or `undefined`. */
  get(id) {
    return settled(async () => {
      const key = stringArg(id, "IndexedDbTaskStore.get: id")
      const [, store] = await this.#objectStore("readonly")
      return (await settle(store.get(key), "success", "read")) ?? undefined
    })
  }

  /** Saves a plain-JSON copy of `task` under `task.id` in one transaction; resolves once it is committed. */
  save(task) {
    return settled(async () => {
      const copy = taskArg(task)
      const [tx, store] = await this.#objectStore("readwrite")
      const committed = settle(tx, "complete", "save")
      store.put(copy, copy.id)
      await committed
    })
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    const opening = this.#opening
    this.#opening = null
    opening?.then((db) => db.close(), () => {})
  }
}
