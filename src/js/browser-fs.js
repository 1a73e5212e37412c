// `IndexedDbFileSystem`: a ToolnexusFs over IndexedDB, for the built-in file tools (and an
// agent home's files) in a page, so what the model writes survives a reload. The storage work
// is in browser-stores.js, loaded on first use like the browser conversation stores'.
import { idbFactory, loadBackends, settled, storeError, stringArg, typeName } from "./stores.js"

/** `path` made absolute against `cwd`, with `.`, `..` and repeated slashes resolved. */
function absolute(cwd, path) {
  const parts = []
  for (const part of `${path.startsWith("/") ? "" : cwd}/${path}`.split("/")) {
    if (part === "..") parts.pop()
    else if (part !== "" && part !== ".") parts.push(part)
  }
  return `/${parts.join("/")}`
}

/** A file's contents as bytes: text as UTF-8, a copy of bytes given. */
function bytesOf(contents) {
  if (typeof contents === "string") return new TextEncoder().encode(contents)
  if (contents instanceof ArrayBuffer) return new Uint8Array(contents.slice(0))
  if (ArrayBuffer.isView(contents)) return new Uint8Array(contents.buffer.slice(contents.byteOffset, contents.byteOffset + contents.byteLength))
  throw storeError("invalid_argument", `writeFile: contents must be a string or bytes, got ${typeName(contents)}`)
}

/**
 * A filesystem in IndexedDB (a `ToolnexusFs`): pass it as `createToolkit({fs})` and the
 * built-in file tools read and write files that survive reloads and are shared by the
 * origin's tabs. Files hold bytes (`writeFile` takes text or bytes; `read` gives an image back
 * as a content part). Missing paths reject with `code: "ENOENT"` (`EISDIR`, `ENOTDIR` as
 * Node's fs); a full storage with a `ToolnexusError` of code `"quota_exceeded"`; where there
 * is no IndexedDB the constructor throws `unsupported`.
 *
 * ```js
 * const fs = new IndexedDbFileSystem("notes")
 * await fs.writeFile("/shots/cat.png", new Uint8Array(await blob.arrayBuffer()))
 * const toolkit = await createToolkit({ fs })
 * ```
 */
export class IndexedDbFileSystem {
  #backend

  /** Files in database `dbName` (default `"toolnexus-files"`); `options.cwd` (default `/`) starts relative paths. */
  constructor(dbName, options) {
    idbFactory()
    const name = dbName === undefined ? "toolnexus-files" : stringArg(dbName, "IndexedDbFileSystem: dbName")
    /** Where relative paths start. */
    this.cwd = absolute("/", options?.cwd === undefined ? "/" : stringArg(options.cwd, "IndexedDbFileSystem: cwd"))
    this.#backend = loadBackends().then((m) => new m.IndexedDbFsBackend(name, "files"))
    this.#backend.catch(() => {}) // reported by each call that needs it
  }

  #call(method, path, ...args) {
    return settled(() => {
      const at = absolute(this.cwd, stringArg(path, `${method}: path`))
      return this.#backend.then((backend) => backend[method](at, ...args))
    })
  }

  /** The file's text (UTF-8). */
  readFile(path) {
    return this.#call("readFile", path)
  }

  /** The file's bytes. */
  readBytes(path) {
    return this.#call("readBytes", path)
  }

  /** Creates or replaces the file (text as UTF-8, or bytes), creating missing parent directories. */
  writeFile(path, contents) {
    return settled(() => this.#call("writeFile", path, bytesOf(contents)))
  }

  /**
   * Moves the file at `from` to `to`, replacing a file there, creating missing parent
   * directories: one transaction, so either both paths change or neither does.
   */
  rename(from, to) {
    return settled(() => {
      const source = absolute(this.cwd, stringArg(from, "rename: from"))
      const target = absolute(this.cwd, stringArg(to, "rename: to"))
      return this.#backend.then((backend) => backend.rename(source, target))
    })
  }

  /** Removes a file, or a directory with everything under it. */
  remove(path) {
    return this.#call("remove", path)
  }

  /** The entries of a directory, sorted by name. */
  readDir(path) {
    return this.#call("readDir", path)
  }

  /** `{kind: "file" | "dir"}`, or `null` when nothing is at `path`. */
  stat(path) {
    return this.#call("stat", path)
  }

  /** Closes the database connection now (it reopens on the next call). */
  close() {
    this.#backend.then((backend) => backend.close(), () => {})
  }
}
