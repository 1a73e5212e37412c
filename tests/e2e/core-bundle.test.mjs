// The lean build's bundled entry (pkg/core/index.js) in Chromium: it instantiates from
// core/web/, and the modules it loads on first use, one folder up (../browser-stores.js,
// ../http-send.js), are found from there: a browser store saves and reads, an HTTP tool calls
// the demo server, and an in-process client runs a tool turn.
import assert from "node:assert/strict"
import { describe, it } from "node:test"
import { onDemoPage } from "./browser.mjs"

describe("toolnexus-wasm/core's bundle in the browser", () => {
  const browser = onDemoPage("core-bundle")

  it("loads its on-use modules and runs a browser store, an HTTP tool and an in-process client", async () => {
    const out = await browser.page.evaluate(async () => {
      const m = await import("/pkg/core/index.js")
      const store = new m.WebStorageConversationStore("session", "core:")
      await store.save("t", [{ role: "user", content: "kept" }])
      const kept = (await store.get("t"))[0].content
      const page = m.httpTool({ name: "page", method: "GET", url: `${location.origin}/{path}`, inputSchema: { type: "object" } })
      const fetched = await page.execute({ path: "login.html" })
      const echo = m.defineTool({ name: "echo", inputSchema: { type: "object" }, run: (args) => `echo ${args.x}` })
      const toolkit = await m.createToolkit({ extraTools: [echo] })
      let turn = 0
      const client = m.createInProcessClient({
        model: "scripted",
        generate: ({ messages }) =>
          turn++ === 0 ? { toolCalls: [{ name: "echo", arguments: { x: 1 } }] } : { content: messages.at(-1).content },
      })
      const run = await client.run("go", { toolkit })
      return { kept, status: fetched.metadata?.status, isError: fetched.isError, text: run.text, turns: run.turns }
    })
    assert.deepEqual(out, { kept: "kept", status: 200, isError: false, text: "echo 1", turns: 2 })
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
