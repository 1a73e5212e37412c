// The built-in tools over a filesystem, the way a user calls them: the in-memory default and
// MemoryFileSystem (export/import), Node's real fs in a temporary directory (fs: "node" and the
// module itself), a host ToolnexusFs object, and the errors of a bad `fs` option.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync, mkdirSync, symlinkSync } from "node:fs"
import * as fsPromises from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { createToolkit, MemoryFileSystem } from "../../pkg/node.mjs"

const NO_BASH = ["read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"]
const names = (toolkit) => toolkit.tools().map((t) => t.name)
const tmp = mkdtempSync(path.join(os.tmpdir(), "toolnexus-js-builtins-"))
after(() => rmSync(tmp, { recursive: true, force: true }))

test("the default toolkit offers every built-in but bash, each of source builtin", async () => {
  const toolkit = await createToolkit()
  assert.deepEqual(names(toolkit), NO_BASH)
  for (const tool of toolkit.tools()) assert.equal(tool.source, "builtin", tool.name)
  const read = toolkit.get("read")
  assert.deepEqual(read.inputSchema.required, ["path"])
  assert.equal(toolkit.toOpenAI().length, 9)
})

test("each default toolkit has its own in-memory filesystem", async () => {
  const a = await createToolkit()
  const b = await createToolkit()
  assert.equal((await a.execute("write", { path: "/x.txt", content: "in a" })).isError, false)
  assert.deepEqual(await a.execute("read", { path: "/x.txt" }), { output: "in a", isError: false })
  const missing = await b.execute("read", { path: "/x.txt" })
  assert.deepEqual(missing, { output: "read: no such file or directory: /x.txt", isError: true })
})

test("MemoryFileSystem: files in, methods, error codes, toJSON / fromJSON", () => {
  const files = new MemoryFileSystem({ "/a/one.txt": "1", "b.txt": "2" }, { cwd: "/" })
  assert.equal(files.cwd, "/")
  assert.equal(files.readFile("/a/one.txt"), "1")
  files.writeFile("/deep/er/x.md", "# x")
  assert.deepEqual(files.readDir("/"), [
    { name: "a", kind: "dir" }, { name: "b.txt", kind: "file" }, { name: "deep", kind: "dir" },
  ])
  assert.deepEqual(files.stat("/deep"), { kind: "dir" })
  assert.equal(files.stat("/nope"), null)
  assert.equal(files.exists("/b.txt"), true)
  assert.deepEqual(files.files(), ["/a/one.txt", "/b.txt", "/deep/er/x.md"])
  assert.throws(() => files.readFile("/nope"), { code: "ENOENT", message: "no such file or directory: /nope" })
  assert.throws(() => files.readFile("/a"), { code: "EISDIR" })
  assert.throws(() => files.writeFile("/b.txt/c", "x"), { code: "ENOTDIR" })
  files.remove("/deep/er/x.md")
  const saved = JSON.parse(JSON.stringify(files))
  assert.deepEqual(saved, { files: { "/a/one.txt": "1", "/b.txt": "2" }, dirs: ["/a", "/deep", "/deep/er"] })
  const restored = MemoryFileSystem.fromJSON(saved)
  assert.deepEqual(restored.files(), ["/a/one.txt", "/b.txt"])
  assert.deepEqual(restored.stat("/deep/er"), { kind: "dir" })
  assert.throws(() => MemoryFileSystem.fromJSON({ files: { "/x": 5 } }), { code: "EIO" })
  assert.throws(() => new MemoryFileSystem({ files: "nope" }), { code: "EIO" })
})

test("a MemoryFileSystem passed as fs is the one the tools use, and survives a reload", async () => {
  const files = new MemoryFileSystem({ "/notes/todo.md": "- milk\n- eggs\n" })
  const toolkit = await createToolkit({ fs: files })
  const read = await toolkit.execute("read", { path: "/notes/todo.md", offset: 2, limit: 1 })
  assert.deepEqual(read, { output: "- eggs", isError: false })
  const edited = await toolkit.execute("edit", { path: "/notes/todo.md", oldString: "milk", newString: "oat milk" })
  assert.equal(edited.output, "Edited /notes/todo.md (1 replacement)")
  await toolkit.execute("write", { path: "/notes/new.md", content: "fresh" })
  assert.equal(files.readFile("/notes/todo.md"), "- oat milk\n- eggs\n")
  assert.equal(files.readFile("/notes/new.md"), "fresh")
  const page = JSON.stringify(files)
  const again = await createToolkit({ fs: MemoryFileSystem.fromJSON(JSON.parse(page)) })
  assert.equal((await again.execute("glob", { pattern: "**/*.md", path: "/" })).output, "notes/new.md\nnotes/todo.md")
  const grep = await again.execute("grep", { pattern: "milk", path: "/notes" })
  assert.equal(grep.output, "/notes/todo.md:1:- oat milk")
})

test("grep speaks JavaScript's RegExp: lookbehind, named groups, \\p{L}; an invalid pattern reports RegExp's own message", async () => {
  const files = new MemoryFileSystem({ "/r/a.txt": "price: $42\nid=7\nnaïve café\n$x\n", "/r/b.txt": "cost $9\n" })
  const toolkit = await createToolkit({ fs: files })
  const grep = (pattern, extra = {}) => toolkit.execute("grep", { pattern, path: "/r", ...extra })
  assert.equal((await grep("(?<=\\$)\\d+")).output, "/r/a.txt:1:price: $42\n/r/b.txt:1:cost $9")
  assert.equal((await grep("id=(?<n>\\d)")).output, "/r/a.txt:2:id=7")
  assert.equal((await grep("^\\p{L}+ \\p{L}+$")).output, "", "no u flag: \\p is a literal p, as in JS")
  assert.equal((await grep("ï")).output, "/r/a.txt:3:naïve café")
  assert.deepEqual(JSON.parse(JSON.stringify((await grep("\\$", { limit: 2 })).metadata)), { count: 2 })
  let message
  try {
    new RegExp("(unclosed")
  } catch (e) {
    message = e.message
  }
  assert.deepEqual(await grep("(unclosed"), { output: `grep: invalid regex: ${message}`, isError: true })
})

async function onRealFs(toolkit, dir) {
  const file = path.join(dir, "sub", "a.txt")
  const wrote = await toolkit.execute("write", { path: file, content: "alpha\nbeta\n" })
  assert.equal(wrote.output, `Wrote 11 bytes to ${file}`)
  assert.equal(readFileSync(file, "utf8"), "alpha\nbeta\n")
  assert.equal((await toolkit.execute("read", { path: file, offset: 2 })).output, "beta\n")
  await toolkit.execute("edit", { path: file, oldString: "beta", newString: "BETA" })
  assert.equal(readFileSync(file, "utf8"), "alpha\nBETA\n")
  mkdirSync(path.join(dir, "node_modules"), { recursive: true })
  writeFileSync(path.join(dir, "node_modules", "skip.txt"), "BETA")
  writeFileSync(path.join(dir, "b.md"), "no match\nBETA too")
  const grep = await toolkit.execute("grep", { pattern: "BETA", path: dir })
  assert.equal(grep.output, `${dir}/b.md:2:BETA too\n${dir}/sub/a.txt:2:BETA`)
  assert.equal((await toolkit.execute("glob", { pattern: "**/*.txt", path: dir })).output, "sub/a.txt")
  const missing = await toolkit.execute("read", { path: path.join(dir, "missing") })
  assert.deepEqual(missing, { output: `read: no such file or directory: ${dir}/missing`, isError: true })
  const bad = `*** Begin Patch\n*** Add File: ${dir}/new.txt\n+n\n*** Update File: ${file}\n-nope\n+x\n*** End Patch`
  const failed = await toolkit.execute("apply_patch", { patchText: bad })
  assert.equal(failed.isError, true)
  assert.equal(existsSync(path.join(dir, "new.txt")), false, "a failing hunk writes nothing")
  const good = `*** Begin Patch\n*** Add File: ${dir}/new.txt\n+n\n*** Update File: ${file}\n-BETA\n+gamma\n*** Delete File: ${dir}/b.md\n*** End Patch`
  assert.equal((await toolkit.execute("apply_patch", { patchText: good })).output, "Applied patch: 3 file operations")
  assert.equal(readFileSync(path.join(dir, "new.txt"), "utf8"), "n")
  assert.equal(readFileSync(file, "utf8"), "alpha\ngamma\n")
  assert.equal(existsSync(path.join(dir, "b.md")), false)
}

test('fs: "node" works on the real filesystem in a temporary directory', async () => {
  const dir = mkdtempSync(path.join(tmp, "node-"))
  await onRealFs(await createToolkit({ fs: "node" }), dir)
})

test("fs: the node:fs/promises module itself works the same, and follows a symlink loop once", async () => {
  const dir = mkdtempSync(path.join(tmp, "module-"))
  const toolkit = await createToolkit({ fs: fsPromises })
  await onRealFs(toolkit, dir)
  symlinkSync(path.join(dir, "sub"), path.join(dir, "sub", "loop"))
  assert.equal((await toolkit.execute("glob", { pattern: "**/a.txt", path: dir })).output, "sub/a.txt")
  const relative = await toolkit.execute("read", { path: path.relative(process.cwd(), path.join(dir, "new.txt")) })
  assert.deepEqual(relative, { output: "n", isError: false }, "relative paths resolve against process.cwd()")
})

test("a host ToolnexusFs object with async methods is used as it is", async () => {
  const store = new Map([["/w/a.txt", "hello"]])
  const calls = []
  const enoent = (p) => Object.assign(new Error(`missing ${p}`), { code: "ENOENT" })
  const host = {
    cwd: () => "/w",
    async readFile(p) { calls.push(["readFile", p]); if (!store.has(p)) throw enoent(p); return store.get(p) },
    async writeFile(p, text) { calls.push(["writeFile", p]); store.set(p, text) },
    async remove(p) { store.delete(p) },
    async readDir(p) {
      const prefix = p === "/" ? "/" : `${p}/`
      const kids = new Map()
      for (const key of store.keys()) {
        if (!key.startsWith(prefix)) continue
        const [name, ...rest] = key.slice(prefix.length).split("/")
        kids.set(name, rest.length ? "dir" : "file")
      }
      return [...kids].map(([name, kind]) => ({ name, kind }))
    },
    async stat(p) {
      if (store.has(p)) return { kind: "file" }
      const prefix = p === "/" ? "/" : `${p}/`
      return [...store.keys()].some((k) => k.startsWith(prefix)) ? { kind: "dir" } : null
    },
  }
  const toolkit = await createToolkit({ fs: host })
  assert.deepEqual(await toolkit.execute("read", { path: "a.txt" }), { output: "hello", isError: false })
  await toolkit.execute("write", { path: "sub/../b.txt", content: "B" })
  assert.equal(store.get("/w/b.txt"), "B")
  assert.deepEqual(calls.slice(0, 2), [["readFile", "/w/a.txt"], ["writeFile", "/w/b.txt"]], "paths arrive absolute")
  assert.equal((await toolkit.execute("glob", { pattern: "*.txt" })).output, "a.txt\nb.txt")
  const missing = await toolkit.execute("read", { path: "zz" })
  assert.deepEqual(missing, { output: "read: no such file or directory: /w/zz", isError: true })
  const thrower = { ...host, readFile() { throw new Error("disk on fire") } }
  const broken = await createToolkit({ fs: thrower })
  assert.deepEqual(await broken.execute("read", { path: "a.txt" }), { output: "read: disk on fire", isError: true })
})

test("a bad fs option rejects with a clear error", async () => {
  const cases = [
    ["floppy", "invalid_options", /fs must be "memory", "node", "deno"/],
    [5, "invalid_options", /fs must be a string or an object, got number/],
    [{ readFile() {} }, "invalid_options", /fs object is missing writeFile, remove, readDir, stat/],
    ["deno", "unsupported", /fs: "deno" needs the Deno runtime/],
  ]
  for (const [fs, code, message] of cases) {
    await assert.rejects(createToolkit({ fs }), (e) => e.code === code && message.test(e.message), String(fs))
  }
  assert.deepEqual(names(await createToolkit({ fs: "memory" })), NO_BASH)
})
