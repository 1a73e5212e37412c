// Type tests of the built-in tools' host options and MemoryFileSystem (tsc --noEmit --strict).
import {
  createToolkit,
  IndexedDbFileSystem,
  MemoryFileSystem,
  type ExecFunction,
  type ExecResult,
  type MemoryFileSystemJSON,
  type ToolnexusDirEntry,
  type ToolnexusFs,
  type ToolkitOptions,
} from "toolnexus-wasm"
import * as nodeFs from "node:fs/promises"
import * as childProcess from "node:child_process"

const files = new MemoryFileSystem({ "/a.txt": "a" }, { cwd: "/" })
files.writeFile("/b.txt", "b")
const text: string = files.readFile("/a.txt")
const entries: ToolnexusDirEntry[] = files.readDir("/")
const kind: "file" | "dir" | undefined = files.stat("/a.txt")?.kind
const saved: MemoryFileSystemJSON = files.toJSON()
const copy: MemoryFileSystem = MemoryFileSystem.fromJSON(JSON.parse(JSON.stringify(saved)))
const paths: string[] = copy.files()
const cwd: string = copy.cwd

// IndexedDB: a ToolnexusFs whose files hold bytes too.
const idb: ToolnexusFs = new IndexedDbFileSystem("notes", { cwd: "/work" })
const idbFiles = new IndexedDbFileSystem()
const bytes: Promise<Uint8Array> = idbFiles.readBytes("/a.png")
const wrote: Promise<void> = idbFiles.writeFile("/a.png", new Uint8Array([1, 2]))
// @ts-expect-error: contents are text or bytes
void idbFiles.writeFile("/a.txt", 42)
void [idb, bytes, wrote]

const store = new Map<string, string>()
const host: ToolnexusFs = {
  cwd: "/",
  readFile: async (p) => store.get(p) ?? "",
  writeFile: (p, t) => void store.set(p, t),
  remove: (p) => void store.delete(p),
  readDir: () => [{ name: "x", kind: "file" }],
  stat: async (p) => (store.has(p) ? { kind: "file" } : null),
}

const exec: ExecFunction = async (command, { workdir, timeout }): Promise<ExecResult> => ({
  output: `${command} ${workdir ?? ""} ${timeout}`,
  exitCode: 0,
})

const options: ToolkitOptions[] = [
  { fs: files },
  { fs: "memory" },
  { fs: "node", exec: "node" },
  { fs: "deno" },
  { fs: host, exec },
  { fs: nodeFs, exec: childProcess },
  { exec: false, builtins: { tools: { bash: false } } },
]

export async function run(): Promise<string> {
  const toolkit = await createToolkit({ fs: files, exec })
  const r = await toolkit.execute("read", { path: "/a.txt" })
  return [text, entries.length, kind, paths.length, cwd, options.length, r.output].join(",")
}

// @ts-expect-error fs must be one of the documented kinds
void createToolkit({ fs: "floppy" })
// @ts-expect-error an exec function resolves to {output, exitCode}
void createToolkit({ exec: async () => "done" })
