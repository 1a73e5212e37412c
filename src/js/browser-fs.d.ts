// Typings of browser-fs.js: a ToolnexusFs over IndexedDB.
import type { ToolnexusDirEntry, ToolnexusFs } from "../ts/index.js"

/**
 * A filesystem in IndexedDB (a {@link ToolnexusFs}): pass it as `createToolkit({fs})` and the
 * built-in file tools read and write files that survive reloads and are shared by the origin's
 * tabs. Files hold bytes (`writeFile` takes text or bytes; `read` gives an image back as a
 * content part). Missing paths reject with `code: "ENOENT"` (`EISDIR`, `ENOTDIR` as Node's
 * fs); a full storage with a `ToolnexusError` of code `"quota_exceeded"`; where there is no
 * IndexedDB the constructor throws `unsupported`.
 *
 * ```js
 * const fs = new IndexedDbFileSystem("notes")
 * await fs.writeFile("/shots/cat.png", new Uint8Array(await blob.arrayBuffer()))
 * const toolkit = await createToolkit({ fs })
 * ```
 */
export class IndexedDbFileSystem implements ToolnexusFs {
  /** Files in database `dbName` (default `"toolnexus-files"`); `options.cwd` (default `/`) starts relative paths. */
  constructor(dbName?: string, options?: { cwd?: string })
  /** Where relative paths start. */
  readonly cwd: string
  /** The file's text (UTF-8). */
  readFile(path: string): Promise<string>
  /** The file's bytes. */
  readBytes(path: string): Promise<Uint8Array>
  /** Creates or replaces the file (text as UTF-8, or bytes), creating missing parent directories. */
  writeFile(path: string, contents: string | Uint8Array | ArrayBuffer): Promise<void>
  /** Removes a file, or a directory with everything under it. */
  remove(path: string): Promise<void>
  /** Moves the file at `from` to `to` (replacing a file there) in one transaction: both paths change or neither. */
  rename(from: string, to: string): Promise<void>
  /** The entries of a directory, sorted by name. */
  readDir(path: string): Promise<ToolnexusDirEntry[]>
  /** `{kind: "file" | "dir"}`, or `null` when nothing is at `path`. */
  stat(path: string): Promise<{ kind: "file" | "dir" } | null>
  /** Closes the database connection now (it reopens on the next call). */
  close(): void
}
