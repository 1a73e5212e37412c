// Typings of token-stores.js (the full entries export `IndexedDbTokenStore` and `FileTokenStore`).
import type { TokenStore } from "../ts/index.js"

/**
 * OAuth tokens, registered clients and pending sign-ins in the browser's IndexedDB (pages,
 * workers, Service Workers): a sign-in that sends the page away to the authorization server
 * finds its flow again when the page loads back, and a later load uses the stored token
 * without signing in. Throws `code: "unsupported"` where there is no `indexedDB` (Node, Deno:
 * use {@link FileTokenStore}); a full storage rejects with `code: "quota_exceeded"`.
 *
 * ```js
 * const tokenStore = new IndexedDbTokenStore()      // database "toolnexus-auth", object store "tokens"
 * const toolkit = await createToolkit({ mcpConfig, tokenStore })
 * ```
 */
export declare class IndexedDbTokenStore implements TokenStore {
  /** Values in database `dbName` (default `"toolnexus-auth"`), object store `storeName` (default `"tokens"`), made on first use. */
  constructor(dbName?: string | null, storeName?: string | null)
  /** The database's name. */
  readonly dbName: string
  /** The JSON text stored under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>
  /** Stores `value` (JSON text) under `key` in one transaction; resolves once it is committed. */
  set(key: string, value: string): Promise<void>
  /** Forgets `key` (nothing happens when it is absent); resolves once committed. */
  delete(key: string): Promise<void>
  /** Closes the connection now (it reopens on the next call). */
  close(): void
}

/**
 * OAuth tokens, registered clients and pending sign-ins in one JSON file (Node, Bun, Deno),
 * readable only by its owner (mode 0600; its directory made 0700 when missing). Each change
 * writes a new temporary file and renames it over the old one, so a reader never sees half of
 * it. Changes in one process are queued per file; give each process its own file. A file that
 * is not a JSON object of strings is refused with `code: "store"`, never overwritten.
 *
 * ```js
 * const tokenStore = new FileTokenStore(`${process.env.HOME}/.config/my-agent/tokens.json`)
 * const toolkit = await createToolkit({ mcpConfig, tokenStore })
 * ```
 */
export declare class FileTokenStore implements TokenStore {
  /** A store in the file at `path` (made on the first `set`); throws `unsupported` where there is no file system. */
  constructor(path: string)
  /** The file the values are in. */
  readonly path: string
  /** The JSON text stored under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>
  /** Stores `value` (JSON text) under `key`; resolves once the file is replaced. */
  set(key: string, value: string): Promise<void>
  /** Forgets `key` (nothing is written when it is absent); resolves once the file is replaced. */
  delete(key: string): Promise<void>
}
