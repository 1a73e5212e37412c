// IndexedDbFileSystem in Chromium: files (text and bytes) survive a reload; the ToolnexusFs
// error codes; a directory removed with what is under it; the built-in file tools on it (an
// image read back as a content part); and a full storage refused as quota_exceeded, with what
// was saved before still there.
import assert from "node:assert/strict"
import { describe, it } from "node:test"
import { inPage, onDemoPage } from "./browser.mjs"


/** What a rejected promise carried: `{code, message}`, or "resolved". */
const failure = async (promise) => promise.then(() => "resolved", (e) => ({ code: e.code, message: e.message }))

describe("IndexedDbFileSystem in the browser", () => {
  const browser = onDemoPage("idb-fs")

  it("keeps text and bytes across a reload, with directories made on the way", async () => {
    await inPage(browser.page, async (m) => {
      const fs = new m.IndexedDbFileSystem("idb-fs-test")
      await fs.writeFile("/notes/todo.md", "- ship\n- tell the team ✓\n")
      await fs.writeFile("shots/a.png", Uint8Array.from([137, 80, 78, 71, 0, 255]))
      fs.close()
    })
    await browser.page.reload()
    const got = await inPage(browser.page, async (m) => {
      const fs = new m.IndexedDbFileSystem("idb-fs-test")
      return {
        text: await fs.readFile("/notes/todo.md"),
        bytes: [...(await fs.readBytes("/shots/a.png"))],
        root: await fs.readDir("/"),
        shots: await fs.readDir("/shots"),
        stat: [await fs.stat("/notes"), await fs.stat("/notes/todo.md"), await fs.stat("/nope")],
      }
    })
    assert.deepEqual(got, {
      text: "- ship\n- tell the team ✓\n",
      bytes: [137, 80, 78, 71, 0, 255],
      root: [{ name: "notes", kind: "dir" }, { name: "shots", kind: "dir" }],
      shots: [{ name: "a.png", kind: "file" }],
      stat: [{ kind: "dir" }, { kind: "file" }, null],
    })
  })

  it("fails as Node's fs does, removes a directory with its contents, and refuses bad arguments", async () => {
    const got = await inPage(browser.page, async (m, failureSource) => {
      const failure = new Function(`return (${failureSource})`)()
      const fs = new m.IndexedDbFileSystem("idb-fs-errors")
      await fs.writeFile("/d/e/f.txt", "x")
      const out = {
        missing: await failure(fs.readFile("/d/none.txt")),
        dirAsFile: await failure(fs.readFile("/d/e")),
        fileAsDir: await failure(fs.writeFile("/d/e/f.txt/g", "y")),
        listFile: await failure(fs.readDir("/d/e/f.txt")),
        overDir: await failure(fs.writeFile("/d", "z")),
        badPath: await failure(fs.readFile(42)),
        badContents: await failure(fs.writeFile("/x", { not: "bytes" })),
      }
      await fs.writeFile("/d2/keep.txt", "k")
      await fs.remove("/d")
      out.afterRemove = [await fs.stat("/d"), await fs.stat("/d/e/f.txt"), await fs.readFile("/d2/keep.txt")]
      out.removeMissing = await failure(fs.remove("/d"))
      return out
    }, failure.toString())
    assert.deepEqual(got, {
      missing: { code: "ENOENT", message: "no such file or directory: /d/none.txt" },
      dirAsFile: { code: "EISDIR", message: "not a file: /d/e" },
      fileAsDir: { code: "ENOTDIR", message: "not a directory: /d/e/f.txt" },
      listFile: { code: "ENOTDIR", message: "not a directory: /d/e/f.txt" },
      overDir: { code: "EISDIR", message: "not a file: /d" },
      badPath: { code: "invalid_argument", message: "readFile: path must be a string, got number" },
      badContents: { code: "invalid_argument", message: "writeFile: contents must be a string or bytes, got object" },
      afterRemove: [null, null, "k"],
      removeMissing: { code: "ENOENT", message: "no such file or directory: /d" },
    })
  })

  it("is the built-in file tools' filesystem: write, edit, glob, grep, and read of an image as a part", async () => {
    const got = await inPage(browser.page, async (m) => {
      const fs = new m.IndexedDbFileSystem("idb-fs-tools", { cwd: "/work" })
      await fs.writeFile("/work/cat.png", Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]))
      const toolkit = await m.createToolkit({ fs })
      const run = (name, args) => toolkit.execute(name, args)
      return {
        write: (await run("write", { path: "plan.md", content: "# Plan\n- a\n" })).output,
        edit: (await run("edit", { path: "plan.md", oldString: "- a", newString: "- b" })).output,
        read: (await run("read", { path: "plan.md" })).output,
        glob: (await run("glob", { pattern: "**/*" })).output,
        grep: (await run("grep", { pattern: "- b" })).output,
        image: await run("read", { path: "cat.png" }),
        missing: await run("read", { path: "gone.md" }),
      }
    })
    assert.deepEqual(JSON.parse(JSON.stringify(got)), {
      write: "Wrote 11 bytes to plan.md",
      edit: "Edited plan.md (1 replacement)",
      read: "# Plan\n- b\n",
      glob: "cat.png\nplan.md",
      grep: "/work/plan.md:2:- b",
      image: { output: "cat.png (image/png, 8 bytes)", isError: false, parts: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "cat.png" }] },
      missing: { output: "read: no such file or directory: /work/gone.md", isError: true },
    })
  })

  it("a full storage is quota_exceeded, and what was saved before is still there", async () => {
    // Chromium 156 ignores the DevTools protocol's Storage.overrideQuotaForOrigin (the quota
    // reported by navigator.storage.estimate() stays the same), so the full storage is made by
    // fault injection: IDBObjectStore.put throws the DOMException a browser throws when full.
    const got = await inPage(browser.page, async (m) => {
      const fs = new m.IndexedDbFileSystem("idb-fs-quota")
      await fs.writeFile("/small.txt", "kept")
      const put = IDBObjectStore.prototype.put
      IDBObjectStore.prototype.put = function (value, key) {
        if (value?.data?.byteLength > 1024 * 1024) throw new DOMException("The quota has been exceeded.", "QuotaExceededError")
        return put.call(this, value, key)
      }
      try {
        let refused
        try {
          await fs.writeFile("/big.bin", new Uint8Array(4 * 1024 * 1024).fill(7))
          refused = "resolved"
        } catch (e) {
          refused = { code: e.code, isToolnexusError: m.isToolnexusError(e), message: e.message }
        }
        const toolkit = await m.createToolkit({ fs })
        const tool = await toolkit.execute("write", { path: "/big.txt", content: "x".repeat(4 * 1024 * 1024) })
        return { refused, tool, kept: await fs.readFile("/small.txt"), big: [await fs.stat("/big.bin"), await fs.stat("/big.txt")] }
      } finally {
        IDBObjectStore.prototype.put = put
      }
    })
    assert.deepEqual(got.refused, { code: "quota_exceeded", isToolnexusError: true, message: "IndexedDB write failed: QuotaExceededError: The quota has been exceeded." })
    assert.deepEqual(got.tool, { output: "write: IndexedDB write failed: QuotaExceededError: The quota has been exceeded.", isError: true })
    assert.equal(got.kept, "kept")
    assert.deepEqual(got.big, [null, null], "nothing half-written")
    assert.deepEqual(browser.problems, [])
  })

  it("rename moves a file in one transaction; the memory tool's edits survive a reload, and a failed write leaves MEMORY.md whole", async () => {
    const before = await inPage(browser.page, async (m, failureSource) => {
      const failure = new Function(`return (${failureSource})`)()
      const fs = new m.IndexedDbFileSystem("idb-fs-rename")
      await fs.writeFile("/a.tmp", "new")
      await fs.writeFile("/home/a.md", "old")
      await fs.rename("/a.tmp", "/home/a.md")
      await fs.writeFile("/b.tmp", "b")
      await fs.rename("/b.tmp", "/made/on/the/way.md")
      const out = {
        moved: [await fs.readFile("/home/a.md"), await fs.stat("/a.tmp"), await fs.readFile("/made/on/the/way.md")],
        missing: await failure(fs.rename("/none", "/x")),
        fromDir: await failure(fs.rename("/home", "/x")),
        overDir: await failure(fs.rename("/home/a.md", "/made")),
        badPath: await failure(fs.rename("/home/a.md", 7)),
      }
      // A rename whose transaction fails partway commits nothing: the delete throws after the put.
      const del = IDBObjectStore.prototype.delete
      IDBObjectStore.prototype.delete = function () {
        throw new DOMException("The transaction was aborted.", "AbortError")
      }
      await fs.writeFile("/c.tmp", "c")
      try {
        out.aborted = await failure(fs.rename("/c.tmp", "/home/a.md"))
      } finally {
        IDBObjectStore.prototype.delete = del
      }
      out.afterAbort = [await fs.readFile("/home/a.md"), await fs.readFile("/c.tmp")]

      // The memory tool over it: an edit, then a write that fails (the storage is full).
      await fs.writeFile("/ava/MEMORY.md", "- Likes hiking\n")
      const memory = m.agents.memoryTool("/ava", { fs })
      out.add = await memory.execute({ action: "add", text: "Drinks green tea" })
      const put = IDBObjectStore.prototype.put
      IDBObjectStore.prototype.put = function (value, key) {
        if (key === "/ava/.MEMORY.md.tmp") throw new DOMException("The quota has been exceeded.", "QuotaExceededError")
        return put.call(this, value, key)
      }
      try {
        out.full = await memory.execute({ action: "replace", text: "green tea", with: "oolong" })
      } finally {
        IDBObjectStore.prototype.put = put
      }
      out.files = await fs.readDir("/ava")
      fs.close()
      return out
    }, failure.toString())
    assert.deepEqual(before, {
      moved: ["new", null, "b"],
      missing: { code: "ENOENT", message: "no such file or directory: /none" },
      fromDir: { code: "EISDIR", message: "not a file: /home" },
      overDir: { code: "EISDIR", message: "not a file: /made" },
      badPath: { code: "invalid_argument", message: "rename: to must be a string, got number" },
      aborted: { code: "store", message: "IndexedDB rename failed: AbortError: The transaction was aborted." },
      afterAbort: ["new", "c"],
      add: { output: "ok (add → MEMORY.md); loads next session", isError: false },
      full: { output: "memory: MEMORY.md was not changed: IndexedDB write failed: QuotaExceededError: The quota has been exceeded.", isError: true },
      files: [{ name: "MEMORY.md", kind: "file" }],
    })
    await browser.page.reload()
    const after = await inPage(browser.page, async (m) => {
      const fs = new m.IndexedDbFileSystem("idb-fs-rename")
      return { memory: await fs.readFile("/ava/MEMORY.md"), soul: (await m.agents.composeSoul("/ava", { fs })).soul }
    })
    assert.deepEqual(after, { memory: "- Likes hiking\n- Drinks green tea\n", soul: "## MEMORY.md\n\n- Likes hiking\n- Drinks green tea" })
    assert.deepEqual(browser.problems, [])
  })
})
