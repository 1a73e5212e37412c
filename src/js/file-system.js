// The few file operations the file-backed stores need (`FileTaskStore`, `FileTokenStore`), from
// Deno or Node's `node:fs` (also Bun's), found when a store is made, so that a page bundling the
// entries never touches either.
import { ToolnexusError } from "./errors.js"

/**
 * The runtime's file operations: `mkdirSync(dir)`, `mkdir(dir, mode)` (both recursive),
 * `read(file)` (the text, `undefined` when there is no such file), `write(file, text, {mode,
 * createNew})`, `rename(from, to)`, `remove(file)` (never throws). Where there is none, throws
 * `unsupported`, the message naming `owner` and what to use `instead`.
 *
 * ```js
 * const fs = fileSystem("FileTaskStore", "use InMemoryTaskStore")
 * await fs.write("/tmp/t.json", "{}", { mode: 0o600, createNew: true })
 * ```
 */
export function fileSystem(owner, instead) {
  const Deno = globalThis.Deno
  if (typeof Deno?.readTextFile === "function") {
    return {
      mkdirSync: (dir) => Deno.mkdirSync(dir, { recursive: true }),
      mkdir: (dir, mode) => Deno.mkdir(dir, { recursive: true, mode }),
      read: (file) => Deno.readTextFile(file).catch((thrown) => (thrown instanceof Deno.errors.NotFound ? undefined : Promise.reject(thrown))),
      write: (file, text, { mode, createNew } = {}) => Deno.writeTextFile(file, text, { mode, createNew }),
      rename: (from, to) => Deno.rename(from, to),
      remove: (file) => Deno.remove(file).catch(() => {}),
    }
  }
  const fs = globalThis.process?.getBuiltinModule?.("node:fs")
  if (!fs) throw new ToolnexusError("unsupported", `${owner}: this runtime has no file system (no node:fs, no Deno); ${instead}`)
  return {
    mkdirSync: (dir) => fs.mkdirSync(dir, { recursive: true }),
    mkdir: (dir, mode) => fs.promises.mkdir(dir, { recursive: true, mode }),
    read: (file) => fs.promises.readFile(file, "utf8").catch((thrown) => (thrown?.code === "ENOENT" ? undefined : Promise.reject(thrown))),
    write: (file, text, { mode, createNew } = {}) => fs.promises.writeFile(file, text, { mode, flag: createNew ? "wx" : "w" }),
    rename: (from, to) => fs.promises.rename(from, to),
    remove: (file) => fs.promises.rm(file, { force: true }).catch(() => {}),
  }
}
