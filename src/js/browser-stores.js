// The storage work of `WebStorageConversationStore`, `IndexedDbConversationStore` and
// `IndexedDbFileSystem`: the classes in stores.js and browser-fs.js check their arguments and
// load this module on their first call, so a page that never keeps anything in the browser's
// storage never downloads it. Arguments
// arrive checked and copied (ids as strings, messages and halted runs as plain JSON). The
// helpers it shares with stores.js come from the caller (`backends(helpers)`), so loading it
// fetches nothing else.

/**
 * The two storage backends, over the helpers stores.js gives (`errorText`, `idbFactory`,
 * `storeError`).
 *
 * ```js
 * const { WebStorageBackend, IndexedDbBackend } = (await import("./browser-stores.js")).backends(helpers)
 * ```
 */
export function backends({ errorText, idbFactory, storeError }) {
  const QUOTA_NAMES = ["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"]

  /** Whether a thrown value says the storage is full, in any browser's spelling. */
  const isQuota = (error) => QUOTA_NAMES.includes(error?.name) || error?.code === 22

  /** Conversations and halted runs as JSON text in a Web Storage object, under `prefix`. */
  class WebStorageBackend {
    #storage
    #prefix

    constructor(storage, prefix) {
      this.#storage = storage
      this.#prefix = prefix
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

    get(id) {
      const key = `${this.#prefix}conversation:${id}`
      const list = this.#read(key)
      if (list === undefined || Array.isArray(list)) return list
      throw storeError("store", `the value under "${key}" is not a transcript`)
    }

    save(id, messages) {
      this.#write(`${this.#prefix}conversation:${id}`, messages, "save")
    }

    savePending(key, result) {
      this.#write(`${this.#prefix}pending:${key}`, result, "savePending")
    }

    loadPending(key) {
      return this.#read(`${this.#prefix}pending:${key}`)
    }

    deletePending(key) {
      const name = `${this.#prefix}pending:${key}`
      try {
        this.#call("removeItem", [name])
      } catch (thrown) {
        throw storeError("store", `removing "${name}" failed: ${errorText(thrown)}`)
      }
    }
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
   * One object store of an IndexedDB database: opened on first use (created, with what
   * `setup(store)` adds, when missing), closed when another tab upgrades the database, and
   * reopened on the next call.
   */
  class IdbDatabase {
    #dbName
    #storeName
    #setup
    /** The connection being opened or open: a Promise of the `IDBDatabase`. */
    #opening = null
    /** The open connection, closed when another tab upgrades the database. */
    #db = null

    constructor(dbName, storeName, setup = () => {}) {
      this.#dbName = dbName
      this.#storeName = storeName
      this.#setup = setup
    }

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
          if (!db.objectStoreNames.contains(this.#storeName)) this.#setup(db.createObjectStore(this.#storeName))
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
    async objectStore(mode) {
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

    /** `make(store)`'s request in a readonly transaction, resolved with its result. */
    async query(make, what = "read") {
      const [, store] = await this.objectStore("readonly")
      let request
      try {
        request = make(store)
      } catch (thrown) {
        throw idbFailure(what, thrown)
      }
      return idbEvent(request, "success", ["error"], what)
    }

    /**
     * Runs `change(store)` in one readwrite transaction and waits for it to commit; a change
     * that throws partway aborts it, so none of its requests commit.
     */
    async change(change, what) {
      const [tx, store] = await this.objectStore("readwrite")
      try {
        change(store)
      } catch (thrown) {
        try {
          tx.abort()
        } catch {
          // already finished: nothing was left to commit
        }
        throw idbFailure(what, thrown)
      }
      await idbEvent(tx, "complete", ["error", "abort"], what)
    }
  }

  /**
   * Conversations and halted runs in one IndexedDB object store, under array keys
   * `["conversation", id]` and `["pending", key]`; each write is one `readwrite` transaction
   * putting a whole record.
   */
  class IndexedDbBackend {
    #db

    constructor(dbName, storeName) {
      this.#db = new IdbDatabase(dbName, storeName)
    }

    close() {
      this.#db.close()
    }

    #read(key) {
      return this.#db.query((store) => store.get(key))
    }

    #write(key, record) {
      const what = record === undefined ? "delete" : "save"
      return this.#db.change((store) => {
        if (record === undefined) store.delete(key)
        else store.put({ ...record, savedAt: Date.now() }, key)
      }, what)
    }

    async get(id) {
      return (await this.#read(["conversation", id]))?.messages
    }

    async save(id, messages) {
      await this.#write(["conversation", id], { id, messages })
    }

    async savePending(key, result) {
      await this.#write(["pending", key], { key, result })
    }

    async loadPending(key) {
      return (await this.#read(["pending", key]))?.result
    }

    async deletePending(key) {
      await this.#write(["pending", key], undefined)
    }
  }

  /** A filesystem error as Node's fs throws it: a plain `Error` with `code`. */
  const fsError = (code, message) => Object.assign(new Error(message), { code })
  const parentOf = (path) => path.slice(0, path.lastIndexOf("/")) || "/"
  /** The directories above `path`, outermost first, without the root. */
  const ancestorsOf = (path) => {
    const out = []
    for (let dir = parentOf(path); dir !== "/"; dir = parentOf(dir)) out.unshift(dir)
    return out
  }

  /**
   * Files and directories in one IndexedDB object store, each under its absolute path as
   * `{kind, parent, data?}` (`data` a file's bytes), with an index of children by
   * `[parent, kind]` so a listing reads no file's bytes. Paths arrive absolute and normalized.
   */
  class IndexedDbFsBackend {
    #db

    constructor(dbName, storeName) {
      this.#db = new IdbDatabase(dbName, storeName, (store) => store.createIndex("children", ["parent", "kind"]))
    }

    close() {
      this.#db.close()
    }

    /** The records under `paths` (undefined where none), read in one transaction. */
    async #records(paths) {
      const [, store] = await this.#db.objectStore("readonly")
      const requests = paths.map((path) => {
        try {
          return store.get(path)
        } catch (thrown) {
          throw idbFailure("read", thrown)
        }
      })
      return Promise.all(requests.map((request) => idbEvent(request, "success", ["error"], "read")))
    }

    async #record(path) {
      return path === "/" ? { kind: "dir" } : (await this.#records([path]))[0]
    }

    async #fileBytes(path) {
      const record = await this.#record(path)
      if (record === undefined) throw fsError("ENOENT", `no such file or directory: ${path}`)
      if (record.kind !== "file") throw fsError("EISDIR", `not a file: ${path}`)
      return record.data
    }

    async readFile(path) {
      return new TextDecoder().decode(await this.#fileBytes(path))
    }

    async readBytes(path) {
      return new Uint8Array(await this.#fileBytes(path))
    }

    async writeFile(path, bytes) {
      if (path === "/") throw fsError("EISDIR", "not a file: /")
      const above = ancestorsOf(path)
      const found = await this.#records([...above, path])
      above.forEach((dir, i) => {
        if (found[i]?.kind === "file") throw fsError("ENOTDIR", `not a directory: ${dir}`)
      })
      if (found.at(-1)?.kind === "dir") throw fsError("EISDIR", `not a file: ${path}`)
      await this.#db.change((store) => {
        above.forEach((dir, i) => {
          if (found[i] === undefined) store.put({ kind: "dir", parent: parentOf(dir) }, dir)
        })
        store.put({ kind: "file", parent: parentOf(path), data: bytes }, path)
      }, "write")
    }

    /** Moves a file: the new record and the old one's removal commit in one transaction. */
    async rename(from, to) {
      if (from === "/") throw fsError("EISDIR", "not a file: /")
      if (to === "/") throw fsError("EISDIR", "not a file: /")
      const above = ancestorsOf(to)
      const [record, ...found] = await this.#records([from, ...above, to])
      if (record === undefined) throw fsError("ENOENT", `no such file or directory: ${from}`)
      if (record.kind !== "file") throw fsError("EISDIR", `not a file: ${from}`)
      above.forEach((dir, i) => {
        if (found[i]?.kind === "file") throw fsError("ENOTDIR", `not a directory: ${dir}`)
      })
      if (found.at(-1)?.kind === "dir") throw fsError("EISDIR", `not a file: ${to}`)
      if (from === to) return
      await this.#db.change((store) => {
        above.forEach((dir, i) => {
          if (found[i] === undefined) store.put({ kind: "dir", parent: parentOf(dir) }, dir)
        })
        store.put({ ...record, parent: parentOf(to) }, to)
        store.delete(from)
      }, "rename")
    }

    async remove(path) {
      if ((await this.#record(path)) === undefined) throw fsError("ENOENT", `no such file or directory: ${path}`)
      await this.#db.change((store) => {
        if (path === "/") return store.clear()
        store.delete(path)
        store.delete(IDBKeyRange.bound(`${path}/`, `${path}/\uffff`))
      }, "remove")
    }

    async readDir(path) {
      const record = await this.#record(path)
      if (record === undefined) throw fsError("ENOENT", `no such file or directory: ${path}`)
      if (record.kind !== "dir") throw fsError("ENOTDIR", `not a directory: ${path}`)
      const prefix = path === "/" ? "/" : `${path}/`
      const entries = []
      for (const kind of ["dir", "file"]) {
        const keys = await this.#db.query((store) => store.index("children").getAllKeys(IDBKeyRange.only([path, kind])))
        for (const key of keys) entries.push({ name: key.slice(prefix.length), kind })
      }
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    }

    async stat(path) {
      const record = await this.#record(path)
      return record === undefined ? null : { kind: record.kind }
    }
  }

  return { WebStorageBackend, IndexedDbBackend, IndexedDbFsBackend }
}
