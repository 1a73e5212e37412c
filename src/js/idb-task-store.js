// `IndexedDbTaskStore`: served A2A tasks in the browser's IndexedDB, for a toolkit served from a
// page, a worker or a Service Worker (`toolkit.handler` in a `fetch` event). The IndexedDB work
// is here, bundled into the full entries, and not in browser-stores.js (which the conversation
// stores load with `import()` on first use): a Service Worker may not call `import()`, and a
// handler in one is where this store is most needed. One object store, keyed by task id, one
// whole task per record; each save is one `readwrite` transaction, so the last writer of a task
// wins and a reader never sees half of one.
import { IdbKeyed } from "./idb-keyed.js"
import { settled, storeError, stringArg, typeName } from "./stores.js"

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
  #db

  /** Tasks in database `dbName` (default `"toolnexus-tasks"`), object store `storeName` (default `"tasks"`), made on first use. */
  constructor(dbName, storeName) {
    const db = dbName === undefined || dbName === null ? "toolnexus-tasks" : stringArg(dbName, "IndexedDbTaskStore: dbName")
    const store = storeName === undefined || storeName === null ? "tasks" : stringArg(storeName, "IndexedDbTaskStore: storeName")
    this.#db = new IdbKeyed("IndexedDbTaskStore", db, store, "use FileTaskStore or InMemoryTaskStore")
  }

  /** The database's name. */
  get dbName() {
    return this.#db.dbName
  }

  /** The task saved under `id`, or `undefined`. */
  get(id) {
    return settled(() => this.#db.read(stringArg(id, "IndexedDbTaskStore.get: id")))
  }

  /** Saves a plain-JSON copy of `task` under `task.id` in one transaction; resolves once it is committed. */
  save(task) {
    return settled(() => {
      const copy = taskArg(task)
      return this.#db.write(copy.id, copy)
    })
  }

  /** Closes the connection now (it reopens on the next call). */
  close() {
    this.#db.close()
  }
}
