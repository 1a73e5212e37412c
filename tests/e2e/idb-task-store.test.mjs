// IndexedDbTaskStore in Chromium: a served A2A task written before a reload is read after it,
// through the store and through a new handler over the same database (an agent served by a
// page, or by a worker, restarts without losing its tasks); resolveStore takes the store and
// its "indexeddb:<database>" selector; bad tasks are refused with invalid_argument; a
// dedicated worker reads the page's tasks; and a Service Worker serving an A2A agent over the
// store (www/task-store-sw.js) answers for its task after the page reloads.
import assert from "node:assert/strict"
import { join } from "node:path"
import { describe, it } from "node:test"
import { inPage, onDemoPage, shots } from "./browser.mjs"


describe("IndexedDbTaskStore in the browser", () => {
  const browser = onDemoPage("idb-task-store")

  it("keeps a served task across a reload: the store and a new handler over it answer GetTask", async () => {
    const sent = await inPage(browser.page, async (m) => {
      const client = m.createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: `ANSWER: ${messages.at(-1).content}` }) })
      const toolkit = await m.createToolkit({ builtins: false })
      const store = new m.IndexedDbTaskStore("a2a-e2e")
      const handler = toolkit.handler({ client, a2a: { name: "page-desk", store } })
      const rpc = async (method, params) => {
        const res = await handler(new Request(`${location.origin}/`, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }))
        return res.json()
      }
      const first = await rpc("SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "before the reload" }] }, configuration: { blocking: true } })
      await store.save({ id: "hand-made", status: { state: "working" } })
      store.close()
      return { id: first.result.id, state: first.result.status.state, lease: "lease" in first.result }
    })
    assert.deepEqual({ state: sent.state, lease: sent.lease }, { state: "completed", lease: false })
    await browser.page.reload()
    const got = await inPage(
      browser.page,
      async (m, id) => {
        const store = new m.IndexedDbTaskStore("a2a-e2e")
        const direct = await store.get(id)
        const client = m.createInProcessClient({ model: "scripted", generate: async () => ({ content: "unused" }) })
        const toolkit = await m.createToolkit({ builtins: false })
        const handler = toolkit.handler({ client, a2a: { name: "page-desk", store: "indexeddb:a2a-e2e" } })
        const rpc = async (method, params, headers = {}) => {
          const res = await handler(new Request(`${location.origin}/`, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }))
          return res.json()
        }
        return {
          direct: { state: direct.status.state, artifact: direct.artifacts[0].parts[0].text },
          handMade: (await store.get("hand-made")).status.state,
          missing: await store.get("no-such-task"),
          viaHandler: (await rpc("GetTask", { id })).result.artifacts[0].parts,
          viaHandlerV1: (await rpc("GetTask", { id }, { "a2a-version": "1.0" })).result.status.state,
          unknown: (await rpc("GetTask", { id: "nope" })).error,
          resolved: m.resolveStore(store) === store,
          selector: m.resolveStore("indexeddb:other") instanceof m.IndexedDbTaskStore,
          plain: m.resolveStore("indexeddb").dbName,
        }
      },
      sent.id,
    )
    assert.deepEqual(got, {
      direct: { state: "completed", artifact: "ANSWER: before the reload" },
      handMade: "working",
      missing: undefined,
      viaHandler: [{ kind: "text", text: "ANSWER: before the reload" }],
      viaHandlerV1: "TASK_STATE_COMPLETED",
      unknown: { code: -32001, message: "Task not found: nope" },
      resolved: true,
      selector: true,
      plain: "toolnexus-tasks",
    })
    await browser.page.screenshot({ path: join(shots, "idb-task-store.png") })
    assert.deepEqual(browser.problems, [])
  })

  it("refuses what is not a task, and a worker of the page reads the page's tasks", async () => {
    const got = await inPage(browser.page, async (m) => {
      const store = new m.IndexedDbTaskStore("a2a-e2e-bad")
      const failure = (p) => p.then(() => "resolved", (e) => ({ code: e.code, message: e.message }))
      const out = {
        noId: await failure(store.save({ status: { state: "working" } })),
        noState: await failure(store.save({ id: "x", status: {} })),
        notJson: await failure(store.save({ id: "x", status: { state: "working" }, big: 10n })),
        badId: await failure(store.get(42)),
        badName: await failure(Promise.resolve().then(() => new m.IndexedDbTaskStore(5))),
      }
      await store.save({ id: "shared", status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "from the page" }] }] })
      const source = `import { IndexedDbTaskStore } from "${location.origin}/pkg/index.js"
        const task = await new IndexedDbTaskStore("a2a-e2e-bad").get("shared")
        postMessage(task.artifacts[0].parts[0].text)`
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" })
      out.worker = await new Promise((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data)
        worker.onerror = (e) => reject(new Error(e.message))
      })
      worker.terminate()
      return out
    })
    assert.deepEqual(got.noId, { code: "invalid_argument", message: "IndexedDbTaskStore.save: expected a task with a string id, got object" })
    assert.deepEqual(got.noState, { code: "invalid_argument", message: "IndexedDbTaskStore.save: task x has no status.state" })
    assert.equal(got.notJson.code, "invalid_argument")
    assert.match(got.notJson.message, /^IndexedDbTaskStore\.save: the task is not JSON: /)
    assert.deepEqual(got.badId, { code: "invalid_argument", message: "IndexedDbTaskStore.get: id must be a string, got number" })
    assert.deepEqual(got.badName, { code: "invalid_argument", message: "IndexedDbTaskStore: dbName must be a string, got number" })
    assert.equal(got.worker, "from the page")
    assert.deepEqual(browser.problems, [])
  })

  it("a Service Worker serves an A2A agent whose tasks outlive a reload (www/task-store-sw.js)", async () => {
    const rpcInPage = async (method, params) => {
      const res = await fetch("/", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })
      return res.json()
    }
    const sent = await browser.page.evaluate(async (rpcSource) => {
      await navigator.serviceWorker.register("/task-store-sw.js", { type: "module", scope: "/" })
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }))
      }
      const rpc = new Function(`return (${rpcSource})`)()
      const card = await (await fetch("/.well-known/agent-card.json")).json()
      const env = await rpc("SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "served offline" }] }, configuration: { blocking: true } })
      return { card: card.name, id: env.result.id, state: env.result.status.state }
    }, rpcInPage.toString())
    assert.deepEqual([sent.card, sent.state], ["sw-desk", "completed"])
    await browser.page.reload()
    const got = await browser.page.evaluate(
      async ([rpcSource, id]) => {
        const rpc = new Function(`return (${rpcSource})`)()
        const m = await import("/pkg/index.js")
        const viaWorker = await rpc("GetTask", { id })
        const inPage = await new m.IndexedDbTaskStore("a2a-sw").get(id)
        return { controlled: navigator.serviceWorker.controller !== null, viaWorker: viaWorker.result.artifacts[0].parts, inPage: inPage.status.state }
      },
      [rpcInPage.toString(), sent.id],
    )
    assert.deepEqual(got, { controlled: true, viaWorker: [{ kind: "text", text: "ANSWER: served offline" }], inPage: "completed" })
    assert.deepEqual(browser.problems, [])
  })
})
