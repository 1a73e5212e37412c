// The browser stores in Chromium: IndexedDbConversationStore across reloads and across two pages
// (tabs) of one origin writing concurrently, its halted-run records, an upgrade by another tab
// while a connection is open, its use as a client's store, and WebStorageConversationStore over
// localStorage / sessionStorage including a full storage.
import assert from "node:assert/strict"
import { after, before, describe, it } from "node:test"
import { inPage, openBrowser, startDemoServer } from "./browser.mjs"

describe("IndexedDB and Web Storage stores in the browser", () => {
  let server, browser, pageA, pageB

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    pageA = browser.page
    pageB = await pageA.context().newPage()
    pageB.on("pageerror", (e) => browser.problems.push(`pageerror (B): ${e.message}`))
    for (const page of [pageA, pageB]) await page.goto(new URL("login.html?state=store-tests", server.url).href)
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })


  it("keeps a transcript across a reload", async () => {
    const saved = await inPage(pageA, async (m) => {
      const store = new m.IndexedDbConversationStore("store-test")
      const before = await store.get("reload")
      await store.save("reload", [{ role: "user", content: "still here?" }])
      store.close()
      return before
    })
    assert.equal(saved, undefined)
    await pageA.reload()
    const got = await inPage(pageA, (m) => new m.IndexedDbConversationStore("store-test").get("reload"))
    assert.deepEqual(got, [{ role: "user", content: "still here?" }])
  })

  it("two tabs saving different ids at once lose nothing", async () => {
    const writer = async (m, tag) => {
      const store = new m.IndexedDbConversationStore("store-test")
      await Promise.all(Array.from({ length: 40 }, (_, i) => store.save(`${tag}-${i}`, [{ role: "user", content: `${tag} ${i}` }])))
      return "ok"
    }
    assert.deepEqual(await Promise.all([inPage(pageA, writer, "a"), inPage(pageB, writer, "b")]), ["ok", "ok"])
    const all = await inPage(pageA, async (m) => {
      const store = new m.IndexedDbConversationStore("store-test")
      const out = []
      for (const tag of ["a", "b"]) for (let i = 0; i < 40; i++) out.push((await store.get(`${tag}-${i}`))?.[0]?.content)
      return out
    })
    const expected = ["a", "b"].flatMap((tag) => Array.from({ length: 40 }, (_, i) => `${tag} ${i}`))
    assert.deepEqual(all, expected)
  })

  it("two tabs saving the same id at once: every read is one whole save, the last writer wins", async () => {
    const writer = async (m, tag) => {
      const store = new m.IndexedDbConversationStore("store-test")
      const transcript = (seq) => Array.from({ length: 300 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `${tag}:${seq}:${i}` }))
      const saves = []
      for (let seq = 0; seq < 30; seq++) saves.push(store.save("shared", transcript(seq)))
      await Promise.all(saves)
      return "ok"
    }
    const reader = async (m) => {
      const store = new m.IndexedDbConversationStore("store-test")
      const seen = []
      for (let n = 0; n < 60; n++) {
        const got = await store.get("shared")
        if (!got) continue
        const marks = new Set(got.map((msg) => msg.content.split(":").slice(0, 2).join(":")))
        seen.push({ length: got.length, marks: [...marks] })
      }
      return seen
    }
    const [, , reads] = await Promise.all([inPage(pageA, writer, "A"), inPage(pageB, writer, "B"), inPage(pageA, reader)])
    for (const read of reads) {
      assert.equal(read.length, 300)
      assert.equal(read.marks.length, 1, `a read mixed two saves: ${read.marks}`)
    }
    const last = await inPage(pageB, (m) => new m.IndexedDbConversationStore("store-test").get("shared"))
    assert.equal(last.length, 300)
    assert.ok(["A:29", "B:29"].includes(last[0].content.split(":").slice(0, 2).join(":")), last[0].content)
    assert.ok(last.every((msg, i) => msg.content.endsWith(`:${i}`)))
  })

  it("keeps a halted run under its key, across a reload, until it is deleted", async () => {
    const halted = { text: "Send 5?", messages: [{ role: "user", content: "pay" }], toolCalls: [], toolCallCount: 0, turns: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, model: "m", status: "pending", pending: { id: "req-1", kind: "approval", prompt: "Send 5?" } }
    const refusal = await inPage(pageA, async (m, halted) => {
      const store = new m.IndexedDbConversationStore("store-test")
      await store.savePending("checkout", halted)
      try {
        await store.savePending("bad", { status: "done", messages: [] })
        return "accepted"
      } catch (e) {
        return e.code
      }
    }, halted)
    assert.equal(refusal, "invalid_argument")
    await pageA.reload()
    const loaded = await inPage(pageA, async (m) => {
      const store = new m.IndexedDbConversationStore("store-test")
      const found = await store.loadPending("checkout")
      const asConversation = await store.get("checkout")
      await store.deletePending("checkout")
      return { found, asConversation, gone: await store.loadPending("checkout") }
    })
    assert.deepEqual(loaded.found, halted)
    assert.equal(loaded.asConversation, undefined, "pending records and transcripts never collide")
    assert.equal(loaded.gone, undefined)
  })

  it("another tab creating a second object store (a version upgrade) does not break an open connection", async () => {
    await inPage(pageA, async (m) => {
      window.openStore = new m.IndexedDbConversationStore("store-upgrade", "first")
      await window.openStore.save("t", [{ role: "user", content: "first" }])
    })
    const second = await inPage(pageB, async (m) => {
      const store = new m.IndexedDbConversationStore("store-upgrade", "second")
      await store.save("t", [{ role: "user", content: "second" }])
      return store.get("t")
    })
    assert.deepEqual(second, [{ role: "user", content: "second" }])
    const first = await pageA.evaluate(async () => {
      await window.openStore.save("t2", [{ role: "user", content: "after the upgrade" }])
      return [await window.openStore.get("t"), await window.openStore.get("t2")]
    })
    assert.deepEqual(first, [[{ role: "user", content: "first" }], [{ role: "user", content: "after the upgrade" }]])
  })

  it("is a client's conversation store: ask saves there and askWithAnswer resumes from it", async () => {
    const out = await inPage(pageA, async (m) => {
      const store = new m.IndexedDbConversationStore("store-test", "client")
      const tool = m.defineTool({ name: "send", description: "asks", run: (_a, ctx) => (ctx.answer?.ok ? "sent" : m.pending({ kind: "approval", prompt: "Send?" })) })
      const toolkit = await m.createToolkit({ extraTools: [tool], builtins: false })
      const generate = ({ messages }) => (messages.at(-1).role === "tool" ? { content: `tool said ${messages.at(-1).content}` } : { toolCalls: [{ name: "send", arguments: {} }] })
      const client = m.createInProcessClient({ model: "m", generate, store })
      const halted = await client.ask("send it", { toolkit, id: "thread" })
      await store.savePending("thread", halted)
      const fresh = m.createInProcessClient({ model: "m", generate, store: new m.IndexedDbConversationStore("store-test", "client") })
      const saved = await store.loadPending("thread")
      const done = await fresh.askWithAnswer({ toolkit, id: "thread", pending: saved.pending, answer: { id: saved.pending.id, ok: true } })
      return { status: halted.status, text: done.text, stored: (await store.get("thread")).length, messages: done.messages.length }
    })
    assert.equal(out.status, "pending")
    assert.equal(out.text, "tool said sent")
    assert.equal(out.stored, out.messages)
  })

  it("Web Storage: local and session storage under a prefix, and a clear error when full", async () => {
    const out = await inPage(pageA, async (m) => {
      const local = new m.WebStorageConversationStore("local", "t:")
      const session = new m.WebStorageConversationStore(sessionStorage, "t:")
      await local.save("a", [{ role: "user", content: "local" }])
      await session.save("a", [{ role: "user", content: "session" }])
      const read = [(await local.get("a"))[0].content, (await session.get("a"))[0].content, localStorage.getItem("t:conversation:a")]
      let full
      try {
        await local.save("a", [{ role: "user", content: "x".repeat(6_000_000) }])
      } catch (e) {
        full = { code: e.code, message: e.message }
      }
      return { read, full, after: (await local.get("a"))[0].content }
    })
    assert.deepEqual(out.read, ["local", "session", '[{"role":"user","content":"local"}]'])
    assert.equal(out.full?.code, "quota_exceeded")
    assert.match(out.full.message, /^save: the storage is full: \d+ characters under "t:conversation:a" did not fit/)
    assert.equal(out.after, "local", "the previous value is intact")
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
