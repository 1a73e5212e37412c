//! TypeScript types of the built-in tools' host options: the filesystem (`fs`) and the
//! process launcher (`exec`) of `createToolkit`, merged into `ToolkitOptions`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** One entry of {@link ToolnexusFs.readDir}; for a symlink, `kind` is its target's. */
export interface ToolnexusDirEntry {
  name: string
  kind: "file" | "dir"
}

/**
 * A filesystem the built-in tools can work on. Every path arrives absolute and normalized
 * (POSIX-style). Methods may be synchronous or return Promises. A missing path throws an error
 * whose `code` is `"ENOENT"` (`"EISDIR"` for a directory where a file was wanted, `"ENOTDIR"`
 * for the reverse); `stat` returns `null` instead.
 *
 * @example
 * const store = new Map()
 * const fs = {
 *   cwd: "/",
 *   readFile: (p) => { if (!store.has(p)) throw Object.assign(new Error(p), { code: "ENOENT" }); return store.get(p) },
 *   writeFile: (p, text) => { store.set(p, text) },
 *   remove: (p) => { store.delete(p) },
 *   readDir: (p) => [...store.keys()].filter((k) => k.startsWith(p === "/" ? "/" : p + "/")).map((k) => ({ name: k.slice(p.length).replace(/^\//, "").split("/")[0], kind: "file" })),
 *   stat: (p) => (store.has(p) ? { kind: "file" } : p === "/" ? { kind: "dir" } : null),
 * }
 */
export interface ToolnexusFs {
  /** The file's UTF-8 text. */
  readFile(path: string): string | Promise<string>
  /** Creates or replaces the file, creating missing parent directories. */
  writeFile(path: string, contents: string): void | Promise<void>
  /** Removes a file, or a directory with everything under it. */
  remove(path: string): void | Promise<void>
  /** The entries of a directory. */
  readDir(path: string): ToolnexusDirEntry[] | Promise<ToolnexusDirEntry[]>
  /** What is at `path` (following symlinks), or `null` when nothing is. */
  stat(path: string): { kind: "file" | "dir" } | null | Promise<{ kind: "file" | "dir" } | null>
  /** The canonical path (symlinks resolved); defaults to the path itself. */
  realPath?(path: string): string | Promise<string>
  /** Where relative paths start (default `/`). */
  cwd?: string | (() => string)
}

/** What {@link MemoryFileSystem.toJSON} gives and {@link MemoryFileSystem.fromJSON} takes. */
export interface MemoryFileSystemJSON {
  files: Record<string, string>
  dirs?: string[]
}

/** The subset of `node:fs/promises` the built-in tools use. */
export interface NodeFsPromises {
  /** Reads a file as UTF-8 text. */
  readFile(path: string, encoding: "utf8"): Promise<string>
  /** Writes UTF-8 text to a file, replacing it. */
  writeFile(path: string, data: string, encoding: "utf8"): Promise<void>
  /** Creates a directory and its missing parents. */
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  /** Removes a file or a directory with its contents. */
  rm(path: string, options: { recursive: true }): Promise<void>
  /** Lists a directory's entries (`Dirent`s). */
  readdir(path: string, options: { withFileTypes: true }): Promise<unknown[]>
  /** Reads a path's metadata (`Stats`). */
  stat(path: string): Promise<unknown>
  /** Resolves a path's symbolic links. */
  realpath(path: string): Promise<string>
}

/** What a host's `exec` function resolves to. */
export interface ExecResult {
  /** stdout and stderr, combined. */
  output: string
  /** `null` when the process was killed by a signal. */
  exitCode: number | null
  /** Whether it was killed for running past the timeout. */
  timedOut?: boolean
}

/** Runs one shell command for the `bash` built-in. */
export type ExecFunction = (
  command: string,
  options: { workdir?: string; timeout: number },
) => ExecResult | Promise<ExecResult>

/** Options of {@link createBuiltinTools}: the `fs` and `exec` of {@link ToolkitOptions}. */
export type BuiltinToolsOptions = Pick<ToolkitOptions, "fs" | "exec">

export interface ToolkitOptions {
  /**
   * The filesystem of `read`, `write`, `edit`, `grep`, `glob` and `apply_patch`: a fresh
   * in-memory one by default (`"memory"`); `"node"` / `"deno"` for the runtime's real one (or
   * pass `await import("node:fs/promises")`); your own {@link MemoryFileSystem}; or any
   * {@link ToolnexusFs}.
   */
  fs?: "memory" | "node" | "deno" | MemoryFileSystem | ToolnexusFs | NodeFsPromises
  /**
   * How `bash` runs commands; without it `bash` is not offered at all. `"node"` uses
   * `child_process` (or pass `await import("node:child_process")`).
   */
  exec?: ExecFunction | "node" | {
    /** `child_process.exec`, the one member read of the module. */
    exec: (...args: never[]) => unknown
  } | false
}
"#;
