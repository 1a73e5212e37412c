// One IndexedDB object store used as a map from string keys to plain values: what
// `IndexedDbTaskStore` (served A2A tasks) and `IndexedDbTokenStore` (OAuth tokens and flows)
// keep. Bundled into the full entries, not loaded with `import()`: a Service Worker may not
// call `import()`. The database is opened on first use, the object store created (with a
// version upgrade) when it is missing, the connection closed when another tab upgrades the
// database and reopened on the next call. Each write is one `readwrite` transaction that
// resolves once committed, so the last writer of a key wins and a reader never sees half of one.
import { idbFactory, storeError } from "./stores.js"

/**
 * A key-value view of object store `storeName` in database `dbName`; `label` (the public
 * class's name) starts every error message. Failures are `ToolnexusError`s: `quota_exceeded`
 * when the storage is full, `store` otherwise; `unsupported` where there is no `indexedDB`.
 *
 * ```js
 * const tasks = new IdbKeyed("IndexedDbTaskStore", "toolnexus-tasks", "tasks", "use FileTaskStore")
 * await tasks.write("t1", { id: "t1" })
 * await tasks.read("t1") // { id: "t1" }
 * ```
 */
export class IdbKeyed {
  #label
  #dbName
  #storeName
  /** The connection being opened or open: a Promise of the `IDBDatabase`, or null. */
  #opening = null

  /** Throws `unsupported` where there is no `indexedDB`, naming `elsewhere` (what to use instead). */
  constructor(label, dbName, storeName, elsewhere) {
    if (globalThis.indexedDB === null || typeof globalThis.indexedDB !== "object") {
      throw storeError("unsupported", `${label}: IndexedDB is not available in this runtime (it exists in browsers and their workers, not in Node or Deno): ${elsewhere}`)
    }
    this.#label = label
    this.#dbName = dbName
    this.#storeName = storeName
  }

  /** The database's name. */
  get dbName() {
    return this.#dbName
  }

  /** A failed request or transaction as a `ToolnexusError` (`quota_exceeded` when full). */
  #failure(what, error) {
    const name = typeof error?.name === "string" ? error.name : ""
    const detail = typeof error?.message === "string" ? error.message : typeof error === "string" ? error : ""
    const code = name === "QuotaExceededError" ? "quota_exceeded" : "store"
    return storeError(code, `${this.#label}: ${what} failed: ${name || "error"}${detail ? `: ${detail}` : ""}`)
  }

  /** Resolves with `target.result` on its `ok` event, rejects on `error` (and `abort`). */
  #settle(target, ok, what) {
    return new Promise((resolve, reject) => {
      target[`on${ok}`] = () => resolve(target.result)
      target.onerror = (event) => reject(this.#failure(what, target.error ?? event?.type))
      if (ok === "complete") target.onabort = (event) => reject(this.#failure(what, target.error ?? event?.type))
    })
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
      const db = await this.#settle(request, "success", "open")
      if (db.objectStoreNames.contains(this.#storeName)) {
        db.onversionchange = () => this.close() // another tab upgrades: let it, reopen on the next call
        return db
      }
      version = db.version + 1
      db.close()
    }
    throw storeError("store", `${this.#label}: could not create the object store "${this.#storeName}"`)
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
      throw this.#failure("transaction", thrown)
    }
  }

  /** The value under `key`, or `undefined`. */
  async read(key) {
    const [, store] = await this.#objectStore("readonly")
    return (await this.#settle(store.get(key), "success", "read")) ?? undefined
  }

  /** Puts `value` under `key` in one transaction; resolves once it is committed. */
  async write(key, value, what = "save") {
    const [tx, store] = await this.#objectStore("readwrite")
    const committed = this.#settle(tx, "complete", what)
    store.put(value, key)
    await committed
  }

  /** Removes `key` in one transaction (nothing happens when it is absent); resolves once committed. */
  async remove(key) {
    const [tx, store] = await this.#objectStore("readwrite")
    const committed = this.#settle(tx, "complete", "delete")
    store.delete(key)
    await committed
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    const opening = this.#opening
    this.#opening = null
    opening?.then((db) => db.close(), () => {})
  }
}
