// Typings of stores.js: the in-memory conversation store (every client's default) and the
// browser's storage as conversation stores that keep halted runs.
import type { ConversationStore, Message, RunResult } from "../ts/index.js"

/**
 * The default conversation store: transcripts in memory for the page's (or process's)
 * lifetime, as JSON text, so `get` and `save` copy. A client made without a `store` option
 * gets one of its own (`client.conversationStore()`); one made here can be shared.
 *
 * ```js
 * const store = new InMemoryConversationStore()
 * await store.save("t1", [{ role: "user", content: "hi" }])
 * await store.get("t1") // [{ role: "user", content: "hi" }]
 * ```
 */
export class InMemoryConversationStore implements ConversationStore {
  constructor()
  /** The transcript saved under `id` (a copy), or `undefined`. */
  get(id: string): Promise<Message[] | undefined>
  /** Saves a copy of `messages` under `id`. */
  save(id: string, messages: Message[]): Promise<void>
}

/** What a {@link WebStorageConversationStore} needs of its storage: `localStorage`, `sessionStorage` or a look-alike. */
export interface StorageLike {
  /** The text under `key`, or `null`. */
  getItem(key: string): string | null
  /** Stores `value` under `key`; may throw when the storage is full. */
  setItem(key: string, value: string): void
  /** Removes `key`. */
  removeItem(key: string): void
}

/** A conversation store that also keeps halted runs (`RunResult` with `status: "pending"`) for a later `runWithAnswer`. */
export interface PendingStore extends ConversationStore {
  /** Keeps a halted `RunResult` (status `"pending"`) under `key`. */
  savePending(key: string, result: RunResult): Promise<void>
  /** The halted `RunResult` saved under `key`, or `undefined`. */
  loadPending(key: string): Promise<RunResult | undefined>
  /** Forgets the halted run under `key`. */
  deletePending(key: string): Promise<void>
}

/**
 * Transcripts and halted runs in the browser's IndexedDB: they survive reloads, every tab and
 * worker of the origin shares them, and concurrent saves never mix (last writer wins per id).
 * Throws `code: "unsupported"` where there is no `indexedDB`; a full storage rejects with
 * `code: "quota_exceeded"`.
 *
 * ```js
 * const store = new IndexedDbConversationStore()          // database "toolnexus", store "conversations"
 * const client = createClient({ baseUrl, style: "openai", model, store })
 * const r = await client.ask("Book it", { toolkit, id: "thread-1" })
 * if (r.status === "pending") await store.savePending("thread-1", r)
 * ```
 */
export class IndexedDbConversationStore implements PendingStore {
  /** A store over database `dbName` (default `"toolnexus"`), object store `storeName` (default `"conversations"`), created on first use. */
  constructor(dbName?: string | null, storeName?: string | null)
  /** The transcript saved under `id`, or `undefined`. */
  get(id: string): Promise<Message[] | undefined>
  /** Saves `messages` under `id` in one transaction; resolves once it is committed. */
  save(id: string, messages: Message[]): Promise<void>
  /** Keeps a halted `RunResult` (status `"pending"`) under `key`, as plain JSON. */
  savePending(key: string, result: RunResult): Promise<void>
  /** The halted `RunResult` saved under `key`, or `undefined`. */
  loadPending(key: string): Promise<RunResult | undefined>
  /** Forgets the halted run under `key` (nothing happens when there is none). */
  deletePending(key: string): Promise<void>
  /** Closes the connection now (it reopens on the next call). */
  close(): void
}

/**
 * Transcripts and halted runs in `localStorage` or `sessionStorage` (or any {@link StorageLike}),
 * as JSON text under `<prefix>conversation:<id>` and `<prefix>pending:<key>`. A full storage
 * rejects with `code: "quota_exceeded"`; a runtime without the storage throws
 * `code: "unsupported"`.
 *
 * ```js
 * const store = new WebStorageConversationStore("session", "myapp:")
 * await store.save("t1", [{ role: "user", content: "hi" }]) // sessionStorage["myapp:conversation:t1"]
 * const client = createClient({ baseUrl, style: "openai", model, store })
 * ```
 */
export class WebStorageConversationStore implements PendingStore {
  /** `storage`: a `Storage` object, `"local"` (the default) or `"session"`; keys start with `prefix` (default `"toolnexus:"`). */
  constructor(storage?: StorageLike | "local" | "session", prefix?: string | null)
  /** The transcript saved under `id`, or `undefined`. */
  get(id: string): Promise<Message[] | undefined>
  /** Saves `messages` under `id`. */
  save(id: string, messages: Message[]): Promise<void>
  /** Keeps a halted `RunResult` (status `"pending"`) under `key`, as JSON text. */
  savePending(key: string, result: RunResult): Promise<void>
  /** The halted `RunResult` saved under `key`, or `undefined`. */
  loadPending(key: string): Promise<RunResult | undefined>
  /** Forgets the halted run under `key`. */
  deletePending(key: string): Promise<void>
}
