// toolkit.handler in Chromium: called in the page with hand-made Requests, and mounted by the
// page's own Service Worker (www/mcp-sw.js) at /mcp, where the page's MCP client and an
// in-process agent run use the tools it serves. `serve` in a page is refused.
import assert from "node:assert/strict"
import { describe, it } from "node:test"
import { onDemoPage } from "./browser.mjs"

describe("toolkit.handler in a page and in its Service Worker", () => {
  const browser = onDemoPage("mcp-serve")

  it("answers hand-made Requests in the page; serve is refused with the way to mount it", async () => {
    const out = await browser.page.evaluate(async () => {
      const m = await import("/pkg/index.js")
      const echo = m.defineTool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } }, run: (a) => `echo ${a.text}` })
      const toolkit = await m.createToolkit({ builtins: false, extraTools: [echo] })
      const handler = toolkit.handler({ mcp: { name: "page" } })
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }
      const post = (accept) =>
        handler(new Request(`${location.origin}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify(call) }))
      const json = await post("application/json, text/event-stream")
      const sse = await post("text/event-stream")
      let refused
      try {
        await toolkit.serve("127.0.0.1:0", { mcp: {} })
      } catch (e) {
        refused = { code: e.code, mentionsHandler: e.message.includes("toolkit.handler") }
      }
      return { json: [json.status, await json.json()], sse: [sse.headers.get("content-type"), (await sse.text()).startsWith("event: message\ndata: ")], refused }
    })
    assert.deepEqual(out, {
      json: [200, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "echo hi" }], isError: false } }],
      sse: ["text/event-stream", true],
      refused: { code: "unsupported", mentionsHandler: true },
    })
  })

  it("an agent in the page calls a tool its Service Worker serves at /mcp", async () => {
    const out = await browser.page.evaluate(async () => {
      await navigator.serviceWorker.register("/mcp-sw.js", { type: "module", scope: "/" })
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }))
      }
      const m = await import("/pkg/index.js")
      const toolkit = await m.createToolkit({ builtins: false, mcpConfig: { mcpServers: { sw: { url: `${location.origin}/mcp` } } } })
      let turn = 0
      const client = m.createInProcessClient({
        model: "scripted",
        generate: ({ messages }) => (turn++ === 0 ? { toolCalls: [{ name: "sw_worker_time", arguments: {} }] } : { content: `tool said: ${messages.at(-1).content}` }),
      })
      const run = await client.run("What time is it where the tool runs?", { toolkit })
      await toolkit.close()
      return { status: toolkit.mcpStatus(), tools: toolkit.tools().map((t) => t.name), text: run.text }
    })
    assert.deepEqual(out.status, { sw: "connected" })
    assert.deepEqual(out.tools, ["sw_worker_time"])
    assert.match(out.text, /^tool said: 1970-01-01T00:00:00\.000Z in http:\/\/127\.0\.0\.1:\d+\/$/)
  })

  it("logged no page errors", () => {
    // The client asks for the standalone GET stream once after initialize; a stateless handler
    // answers 405 (no stream offered, as the MCP spec allows), which Chromium logs, and the
    // request is then dropped by the client. Nothing else may appear.
    // Before initialize, the 2026-07-28 probe (server/discover), which this 2025-11-25 handler
    // turns down with a 400, is logged too.
    const refusedStream = "console: Failed to load resource: the server responded with a status of 405 ()"
    const refusedProbe = "console: Failed to load resource: the server responded with a status of 400 ()"
    const droppedStream = /^requestfailed: http:\/\/127\.0\.0\.1:\d+\/mcp net::ERR_ABORTED$/
    const expected = browser.problems.filter((p) => p === refusedStream || p === refusedProbe || droppedStream.test(p))
    assert.ok(expected.length <= 3, `at most the one refused stream and the one refused probe: ${expected.join(" | ")}`)
    assert.deepEqual(browser.problems.filter((p) => !expected.includes(p)), [])
  })
})
