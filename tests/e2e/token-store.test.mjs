// IndexedDbTokenStore in Chromium: what a page stored (a token, a pending sign-in) is read
// after a reload, by a new store over the same database and by a worker of the page; delete
// forgets; two databases keep apart; bad keys and values are refused with invalid_argument,
// naming no value. The OAuth sign-in that relies on it across a redirect is
// tests/e2e/oauth.test.mjs.
import assert from "node:assert/strict"
import { join } from "node:path"
import { describe, it } from "node:test"
import { inPage, onDemoPage, shots } from "./browser.mjs"

const TOKENS = JSON.stringify({ access_token: "at-page-secret", refresh_token: "rt-page-secret", expires_at: 1_900_000_000 })
const FLOW = JSON.stringify({ verifier: "v-page-secret", issuer: "http://127.0.0.1:1", redirect: "http://127.0.0.1:2/back" })

describe("IndexedDbTokenStore in the browser", () => {
  const browser = onDemoPage("token-store")

  it("keeps tokens and a pending sign-in across a reload; a worker reads them; delete forgets", async () => {
    const before = await inPage(
      browser.page,
      async (m, [tokens, flow]) => {
        const store = new m.IndexedDbTokenStore("auth-e2e")
        await store.set("tokens:issuer|resource", tokens)
        await store.set("flow:state-1", flow)
        await store.set("gone", '"soon"')
        await store.delete("gone")
        await store.delete("never-there")
        const other = new m.IndexedDbTokenStore("auth-e2e-other")
        await other.set("tokens:issuer|resource", '"other"')
        store.close()
        return { db: store.dbName, defaultDb: new m.IndexedDbTokenStore().dbName, gone: await store.get("gone") }
      },
      [TOKENS, FLOW],
    )
    assert.deepEqual(before, { db: "auth-e2e", defaultDb: "toolnexus-auth", gone: undefined })
    await browser.page.reload()
    const after = await inPage(browser.page, async (m) => {
      const store = new m.IndexedDbTokenStore("auth-e2e")
      const source = `import { IndexedDbTokenStore } from "${location.origin}/pkg/index.js"
        const store = new IndexedDbTokenStore("auth-e2e")
        postMessage(await store.get("flow:state-1"))`
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" })
      const fromWorker = await new Promise((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data)
        worker.onerror = (e) => reject(new Error(e.message))
      })
      worker.terminate()
      return {
        tokens: await store.get("tokens:issuer|resource"),
        flow: await store.get("flow:state-1"),
        gone: await store.get("gone"),
        other: await new m.IndexedDbTokenStore("auth-e2e-other").get("tokens:issuer|resource"),
        fromWorker,
      }
    })
    assert.deepEqual(after, { tokens: TOKENS, flow: FLOW, gone: undefined, other: '"other"', fromWorker: FLOW })
    await browser.page.screenshot({ path: join(shots, "token-store.png") })
    assert.deepEqual(browser.problems, [])
  })

  it("refuses a key or value that is not a string, naming no value", async () => {
    const got = await inPage(browser.page, async (m) => {
      const store = new m.IndexedDbTokenStore("auth-e2e")
      const failure = (p) => p.then(() => "resolved", (e) => ({ code: e.code, message: e.message }))
      return {
        value: await failure(store.set("tokens:x", { access_token: "at-object-secret" })),
        key: await failure(store.get(7)),
        del: await failure(store.delete(undefined)),
        name: await failure(Promise.resolve().then(() => new m.IndexedDbTokenStore(5))),
        still: await store.get("tokens:x"),
      }
    })
    assert.deepEqual(got, {
      value: { code: "invalid_argument", message: "IndexedDbTokenStore.set: value must be a string (JSON text), got object" },
      key: { code: "invalid_argument", message: "IndexedDbTokenStore.get: key must be a string, got number" },
      del: { code: "invalid_argument", message: "IndexedDbTokenStore.delete: key must be a string, got undefined" },
      name: { code: "invalid_argument", message: "IndexedDbTokenStore: dbName must be a string, got number" },
      still: undefined,
    })
    assert.deepEqual(browser.problems, [])
  })
})
