// Typings of idb-task-store.js (the full entries export `IndexedDbTaskStore`).
import type { A2ATask, TaskStore } from "../ts/index.js"

/**
 * Served A2A tasks in IndexedDB (pages, workers, Service Workers): they survive reloads and a
 * worker's restart, and every tab and worker of the origin serving the same database answers
 * `GetTask` for the others' tasks. Throws `code: "unsupported"` where there is no `indexedDB`
 * (Node, Deno: use `FileTaskStore`); a full storage rejects with `code: "quota_exceeded"`.
 *
 * ```js
 * const store = new IndexedDbTaskStore()          // database "toolnexus-tasks", object store "tasks"
 * const handler = toolkit.handler({ client, a2a: { name: "desk", store } })
 * ```
 */
export declare class IndexedDbTaskStore implements TaskStore {
  /** Tasks in database `dbName` (default `"toolnexus-tasks"`), object store `storeName` (default `"tasks"`), made on first use. */
  constructor(dbName?: string | null, storeName?: string | null)
  /** The database's name. */
  readonly dbName: string
  /** The task saved under `id`, or `undefined`. */
  get(id: string): Promise<A2ATask | undefined>
  /** Saves a plain-JSON copy of `task` under `task.id` in one transaction; resolves once it is committed. */
  save(task: A2ATask): Promise<void>
  /** Closes the connection now (it reopens on the next call). */
  close(): void
}
