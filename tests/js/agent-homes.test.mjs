// Agent homes (SPEC §7E) on the built package: agents.composeSoul over Node's filesystem (the
// default), a MemoryFileSystem and a host ToolnexusFs; the 2 MB cap; agents.memoryTool in a
// run against a real local model endpoint, whose write reaches the next session's soul and
// never the live prompt; bad arguments; the lean build without them.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { agents, createClient, createToolkit, MemoryFileSystem } from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
const tmp = mkdtempSync(path.join(os.tmpdir(), "toolnexus-js-homes-"))
after(() => (rmSync(tmp, { recursive: true, force: true }), stub.close()))

const home = (files) => {
  const dir = mkdtempSync(path.join(tmp, "home-"))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

test("composeSoul: the present bootstrap files in BOOTSTRAP_ORDER, each a trimmed ## section", async () => {
  const all = Object.fromEntries(agents.BOOTSTRAP_ORDER.map((f) => [f, `  text of ${f}\n\n`]))
  const everything = await agents.composeSoul(home({ ...all, "notes.md": "not a bootstrap file" }))
  assert.deepEqual(everything.found, [...agents.BOOTSTRAP_ORDER])
  assert.equal(everything.soul, agents.BOOTSTRAP_ORDER.map((f) => `## ${f}\n\ntext of ${f}`).join("\n\n"))

  const ava = await agents.composeSoul(home({ "MEMORY.md": "- Onboarded.", "SOUL.md": "You are Ava." }))
  assert.deepEqual(ava, { soul: "## SOUL.md\n\nYou are Ava.\n\n## MEMORY.md\n\n- Onboarded.", found: ["SOUL.md", "MEMORY.md"] })
  assert.deepEqual(await agents.composeSoul(path.join(tmp, "nobody")), { soul: "", found: [] })
})

test("composeSoul: a file over MAX_FILE_BYTES enters cut, with the notice; the file stays whole", async () => {
  // Over 4 MiB of UTF-8 whose cut falls inside a two-byte character: that one becomes U+FFFD.
  const big = "a" + "é".repeat(agents.MAX_FILE_BYTES)
  const dir = home({ "SOUL.md": big })
  const { soul } = await agents.composeSoul(dir)
  assert.ok(soul.startsWith("## SOUL.md\n\naéé"))
  assert.ok(soul.endsWith(`é\uFFFD${agents.TRUNCATION_NOTICE}`))
  assert.equal(soul.length, "## SOUL.md\n\n".length + agents.MAX_FILE_BYTES / 2 + 1 + agents.TRUNCATION_NOTICE.length)
  assert.equal(readFileSync(path.join(dir, "SOUL.md"), "utf8"), big)
})

test("composeSoul and memoryTool on a MemoryFileSystem and on a host ToolnexusFs", async () => {
  const fs = new MemoryFileSystem({ "/ava/SOUL.md": "You are Ava." })
  const memory = agents.memoryTool("/ava", { fs })
  assert.equal(memory.name, "memory")
  assert.deepEqual(await memory.execute({ action: "add", target: "user", text: "Prefers dark roast" }),
    { output: "ok (add → USER.md); loads next session", isError: false })
  assert.equal(fs.readFile("/ava/USER.md"), "- Prefers dark roast\n")
  assert.deepEqual((await agents.composeSoul("/ava", { fs })).found, ["SOUL.md", "USER.md"])

  const denied = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" })
  const host = {
    readFile: () => { throw denied },
    readBytes: (p) => { if (p.endsWith("AGENTS.md")) throw Object.assign(new Error("gone"), { code: "ENOENT" }); throw denied },
    writeFile() {}, remove() {}, readDir: () => [], stat: () => null,
  }
  await assert.rejects(agents.composeSoul("/h", { fs: host }), { code: "store", message: "composeSoul: reading /h/SOUL.md: EACCES: permission denied" })
  assert.deepEqual(await agents.memoryTool("/h", { fs: host }).execute({ action: "add", text: "x" }),
    { output: "memory: EACCES: permission denied", isError: true })
})

test("memoryTool: add, replace, remove; a missing text is an error result and writes nothing", async () => {
  const dir = home({ "MEMORY.md": "- Likes hiking\n" })
  const memory = agents.memoryTool(dir)
  const run = (args) => memory.execute(args)
  const read = () => readFileSync(path.join(dir, "MEMORY.md"), "utf8")
  await run({ action: "add", text: "Drinks green tea" })
  assert.equal(read(), "- Likes hiking\n- Drinks green tea\n")
  assert.equal((await run({ action: "replace", text: "green tea", with: "oolong" })).output, "ok (replace → MEMORY.md); loads next session")
  await run({ action: "remove", text: "- Likes hiking\n" })
  assert.equal(read(), "- Drinks oolong\n")
  assert.deepEqual(await run({ action: "remove", text: "nonexistent" }), { output: "not found: nonexistent", isError: true })
  assert.equal(read(), "- Drinks oolong\n")
})

test("a run that saves a memory: the live prompt stays the same, the next session's soul has it", async () => {
  const dir = home({ "SOUL.md": "You are Ava.", "USER.md": "The user is Muthu." })
  const { soul } = await agents.composeSoul(dir)
  const toolkit = await createToolkit({ builtins: false, extraTools: [agents.memoryTool(dir)] })
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k", systemPrompt: soul })
  stub.script(
    openai.toolCalls([{ id: "w1", name: "memory", args: { action: "add", target: "user", text: "Prefers dark roast" } }]),
    openai.text("Saved."),
  )
  const r = await client.run("Remember: I like dark roast.", { toolkit })
  assert.equal(r.text, "Saved.")
  const [first, second] = stub.requests.map((q) => q.body.messages[0].content)
  assert.equal(first, soul)
  assert.equal(second, soul, "the frozen snapshot: the second request's system prompt is unchanged")
  assert.equal(stub.requests[1].body.messages.at(-1).content, "ok (add → USER.md); loads next session")
  const next = await agents.composeSoul(dir)
  assert.ok(next.soul.includes("## USER.md\n\nThe user is Muthu.\n- Prefers dark roast"), next.soul)
})

test("bad arguments are clear errors; the lean build has no homes", async () => {
  await assert.rejects(agents.composeSoul(42), { code: "invalid_argument", message: "composeSoul: dir must be a non-empty string, got number" })
  assert.throws(() => agents.memoryTool(""), { code: "invalid_argument", message: "memoryTool: dir must be a non-empty string, got an empty string" })
  assert.throws(() => agents.memoryTool("/x", { fs: "floppy" }), { code: "invalid_options" })
  mkdirSync(path.join(tmp, "lean"), { recursive: true })
  assert.equal(core.agents.composeSoul, undefined)
  assert.equal(core.agents.memoryTool, undefined)
  assert.equal(typeof core.agents.compactor, "function")
  assert.equal(typeof agents.compactor, "function", "the full namespace keeps compaction")
})

test("a memory edit writes .MEMORY.md.tmp, then renames it over MEMORY.md: Node's fs, a MemoryFileSystem, a host fs with or without rename", async () => {
  // Node's fs (the default): the edit lands and no temporary file is left.
  const dir = home({ "MEMORY.md": "- Likes hiking\n" })
  await agents.memoryTool(dir).execute({ action: "add", text: "Speaks Tamil" })
  assert.equal(readFileSync(path.join(dir, "MEMORY.md"), "utf8"), "- Likes hiking\n- Speaks Tamil\n")
  assert.deepEqual(readdirSync(dir), ["MEMORY.md"])

  const fs = new MemoryFileSystem({ "/h/MEMORY.md": "- a\n", "/h/x.tmp": "moved" })
  fs.rename("/h/x.tmp", "/h/y.md")
  assert.deepEqual([fs.readFile("/h/y.md"), fs.exists("/h/x.tmp")], ["moved", false])
  assert.throws(() => fs.rename("/h/none", "/h/z"), { code: "ENOENT" })
  assert.throws(() => fs.rename("/h", "/z"), { code: "EISDIR" })
  await agents.memoryTool("/h", { fs }).execute({ action: "add", text: "b" })
  assert.equal(fs.readFile("/h/MEMORY.md"), "- a\n- b\n")
  assert.deepEqual(fs.files(), ["/h/MEMORY.md", "/h/y.md"])

  // A host ToolnexusFs: its rename is used when it has one; without, the text is copied.
  for (const withRename of [true, false]) {
    const files = new Map([["/h/MEMORY.md", "- a\n"]])
    const calls = []
    const host = {
      readFile: (p) => { if (!files.has(p)) throw Object.assign(new Error(p), { code: "ENOENT" }); return files.get(p) },
      writeFile: (p, text) => { calls.push(`write ${p}`); files.set(p, text) },
      remove: (p) => { calls.push(`remove ${p}`); files.delete(p) },
      readDir: () => [], stat: (p) => (files.has(p) ? { kind: "file" } : null),
      ...(withRename ? { rename: (from, to) => { calls.push(`rename ${from} ${to}`); files.set(to, files.get(from)); files.delete(from) } } : {}),
    }
    const r = await agents.memoryTool("/h", { fs: host }).execute({ action: "add", text: "b" })
    assert.equal(r.isError, false, r.output)
    assert.deepEqual([...files], [["/h/MEMORY.md", "- a\n- b\n"]])
    assert.deepEqual(calls, withRename
      ? ["write /h/.MEMORY.md.tmp", "rename /h/.MEMORY.md.tmp /h/MEMORY.md"]
      : ["write /h/.MEMORY.md.tmp", "write /h/MEMORY.md", "remove /h/.MEMORY.md.tmp"])
  }
})

test("a memory write that fails partway (fault injected) leaves the previous MEMORY.md intact", async () => {
  const previous = "- Likes hiking\n- Drinks green tea\n"
  // A host fs over a real directory whose writes store half the text, then fail (a full disk).
  const dir = home({ "MEMORY.md": previous })
  const host = {
    readFile: (p) => readFileSync(p, "utf8"),
    writeFile: (p, text) => {
      writeFileSync(p, text.slice(0, text.length / 2))
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" })
    },
    remove: (p) => rmSync(p, { force: true }),
    readDir: () => [], stat: () => null,
    rename: (from, to) => renameSync(from, to),
  }
  const memory = agents.memoryTool(dir, { fs: host })
  for (const args of [{ action: "add", text: "Speaks Tamil" }, { action: "replace", text: "green tea", with: "oolong" }, { action: "remove", text: "- Likes hiking\n" }]) {
    assert.deepEqual(await memory.execute(args), { output: "memory: MEMORY.md was not changed: ENOSPC: no space left on device, write", isError: true })
    assert.equal(readFileSync(path.join(dir, "MEMORY.md"), "utf8"), previous)
    assert.deepEqual(readdirSync(dir), ["MEMORY.md"], "the half-written temporary file is removed")
  }
  // A rename that fails leaves it too (the temporary file, whole, stays for the host to see).
  const stuck = { ...host, writeFile: (p, text) => writeFileSync(p, text), rename: () => { throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" }) } }
  assert.deepEqual(await agents.memoryTool(dir, { fs: stuck }).execute({ action: "add", text: "x" }),
    { output: "memory: could not save MEMORY.md: EXDEV: cross-device link not permitted", isError: true })
  assert.equal(readFileSync(path.join(dir, "MEMORY.md"), "utf8"), previous)
})
