// The durable OAuth token stores (toolkit option `tokenStore`): `IndexedDbTokenStore` for pages
// and workers, `FileTokenStore` for Node and Deno. Both implement the `TokenStore` interface
// the MCP client's OAuth uses: `get(key)`, `set(key, value)`, `delete(key)`, with string keys
// (tokens per issuer and resource, registered clients per issuer, pending sign-ins per state)
// and values that are JSON text. What they hold is secret (access and refresh tokens, PKCE
// verifiers, client secrets): no message of theirs quotes a value, nor a key (a pending
// sign-in's key carries its state).
import { ToolnexusError } from "./errors.js"
import { fileSystem } from "./file-system.js"
import { IdbKeyed } from "./idb-keyed.js"
import { errorText, settled, storeError, stringArg, typeName } from "./stores.js"

/** `value` when it is a string, else `invalid_argument` naming `what` and the type it got. */
function textArg(value, what) {
  if (typeof value !== "string") throw storeError("invalid_argument", `${what} must be a string (JSON text), got ${typeName(value)}`)
  return value
}

/**
 * OAuth tokens, registered clients and pending sign-ins in the browser's IndexedDB (pages,
 * dedicated and shared workers, Service Workers): a sign-in that sends the page away to the
 * authorization server finds its flow again when the page loads back, and a later load uses
 * the stored token without signing in. Every tab and worker of the origin shares them. Throws
 * `code: "unsupported"` where there is no `indexedDB` (Node, Deno: use `FileTokenStore`); a full
 * storage rejects with `code: "quota_exceeded"`.
 *
 * ```js
 * const tokenStore = new IndexedDbTokenStore()      // database "toolnexus-auth", object store "tokens"
 * const toolkit = await createToolkit({ mcpConfig, tokenStore })
 * ```
 */
export class IndexedDbTokenStore {
  #db

  /** Values in database `dbName` (default `"toolnexus-auth"`), object store `storeName` (default `"tokens"`), made on first use. */
  constructor(dbName, storeName) {
    const db = dbName === undefined || dbName === null ? "toolnexus-auth" : stringArg(dbName, "IndexedDbTokenStore: dbName")
    const store = storeName === undefined || storeName === null ? "tokens" : stringArg(storeName, "IndexedDbTokenStore: storeName")
    this.#db = new IdbKeyed("IndexedDbTokenStore", db, store, "use FileTokenStore, or the default memory store")
  }

  /** The database's name. */
  get dbName() {
    return this.#db.dbName
  }

  /** The JSON text stored under `key`, or `undefined`. */
  get(key) {
    return settled(async () => {
      const value = await this.#db.read(stringArg(key, "IndexedDbTokenStore.get: key"))
      return typeof value === "string" ? value : undefined
    })
  }

  /** Stores `value` (JSON text) under `key` in one transaction; resolves once it is committed. */
  set(key, value) {
    return settled(() => {
      const name = stringArg(key, "IndexedDbTokenStore.set: key")
      return this.#db.write(name, textArg(value, "IndexedDbTokenStore.set: value"))
    })
  }

  /** Forgets `key` (nothing happens when it is absent); resolves once committed. */
  delete(key) {
    return settled(() => this.#db.remove(stringArg(key, "IndexedDbTokenStore.delete: key")))
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    this.#db.close()
  }
}

/** The queue of each file's reads and writes in this process, so two stores over one file never interleave. */
const queues = new Map()

/** The directory part of `path` (`"."` when it has none). */
const directoryOf = (path) => {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"))
  return cut < 0 ? "." : cut === 0 ? path.slice(0, 1) : path.slice(0, cut)
}

/**
 * OAuth tokens, registered clients and pending sign-ins in one JSON file (Node, Bun, Deno): an
 * object from key to value, readable only by its owner (mode 0600, its directory made 0700 when
 * missing). Every change rewrites the file through a new temporary file (0600) renamed over
 * it, so a reader never sees half of it and a file left wider open by hand is replaced by a
 * private one. Changes in one process are queued per file; two processes writing at the same
 * moment may lose one of the two writes (the last rename wins), so give each process its own
 * file. A file that is not such an object is refused (`code: "store"`), never overwritten.
 *
 * ```js
 * const tokenStore = new FileTokenStore(`${process.env.HOME}/.config/my-agent/tokens.json`)
 * const toolkit = await createToolkit({ mcpConfig, tokenStore })
 * ```
 */
export class FileTokenStore {
  #path
  #fs

  /** A store in the file at `path` (made on the first `set`); throws `unsupported` where there is no file system. */
  constructor(path) {
    if (typeof path !== "string" || path === "") {
      throw new ToolnexusError("invalid_options", `FileTokenStore: path must be a non-empty string, got ${typeName(path)}`)
    }
    this.#fs = fileSystem("FileTokenStore", "use IndexedDbTokenStore in a browser, or a store object of your own ({get, set, delete})")
    this.#path = path
  }

  /** The file the values are in. */
  get path() {
    return this.#path
  }

  /** Runs `step` after every earlier read or write of this file in this process. */
  #queued(step) {
    const before = queues.get(this.#path) ?? Promise.resolve()
    const run = before.then(step)
    const settledRun = run.catch(() => {})
    queues.set(this.#path, settledRun)
    settledRun.then(() => queues.get(this.#path) === settledRun && queues.delete(this.#path))
    return run
  }

  /** The file's entries (none when there is no file); `store` when it cannot be read or is not an object of strings. */
  async #load() {
    let text
    try {
      text = await this.#fs.read(this.#path)
    } catch (thrown) {
      throw storeError("store", `FileTokenStore: reading ${this.#path} failed: ${errorText(thrown)}`)
    }
    if (text === undefined) return new Map()
    let entries
    try {
      entries = JSON.parse(text)
    } catch {
      entries = undefined
    }
    if (entries === null || typeof entries !== "object" || Array.isArray(entries) || Object.values(entries).some((v) => typeof v !== "string")) {
      throw storeError("store", `FileTokenStore: ${this.#path} is not a token file (a JSON object of strings); move it away or choose another path`)
    }
    return new Map(Object.entries(entries))
  }

  /** Writes `entries` to a new 0600 temporary file beside the target and renames it over the target. */
  async #save(entries) {
    const temporary = `${this.#path}.${Math.random().toString(36).slice(2)}.tmp`
    try {
      await this.#fs.mkdir(directoryOf(this.#path), 0o700)
      await this.#fs.write(temporary, JSON.stringify(Object.fromEntries(entries), null, 2), { mode: 0o600, createNew: true })
      await this.#fs.rename(temporary, this.#path)
    } catch (thrown) {
      await this.#fs.remove(temporary)
      throw storeError("store", `FileTokenStore: writing ${this.#path} failed: ${errorText(thrown)}`)
    }
  }

  /** The JSON text stored under `key`, or `undefined`. */
  get(key) {
    return settled(() => {
      const name = stringArg(key, "FileTokenStore.get: key")
      return this.#queued(async () => {
        return (await this.#load()).get(name)
      })
    })
  }

  /** Stores `value` (JSON text) under `key`; resolves once the file is replaced. */
  set(key, value) {
    return settled(() => {
      const name = stringArg(key, "FileTokenStore.set: key")
      const text = textArg(value, "FileTokenStore.set: value")
      return this.#queued(async () => {
        const entries = await this.#load()
        entries.set(name, text)
        await this.#save(entries)
      })
    })
  }

  /** Forgets `key` (nothing is written when it is absent); resolves once the file is replaced. */
  delete(key) {
    return settled(() => {
      const name = stringArg(key, "FileTokenStore.delete: key")
      return this.#queued(async () => {
        const entries = await this.#load()
        if (!entries.delete(name)) return
        await this.#save(entries)
      })
    })
  }
}
