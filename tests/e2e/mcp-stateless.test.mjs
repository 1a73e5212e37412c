// MCP 2026-07-28 multi-round-trip input across a reload, in Chromium: a page's run (the model in
// the page, createInProcessClient) calls a tool of the official SDK 2.x server (stateless, on
// another origin) that answers `input_required`; with no waitFor the run halts and the page keeps
// the halted run's JSON (localStorage); the page reloads; runWithAnswer, in the new page, sends
// the call again with the answer and the opaque requestState byte for byte, and the run ends.
// Each toolkit's subscriptions/listen stream is closed (its fetch aborted) by close().
// Screenshots: target/e2e/mcp-stateless-*.png.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"
import { startMcp2Server } from "../js/support/mcp2-server.mjs"
import { eventually } from "../js/support/helpers.mjs"

describe("MCP 2026-07-28 in the browser: an MRTR input halts a run, which resumes after a reload", () => {
  let demo, mcp, browser, page

  before(async () => {
    ;[demo, mcp, browser] = await Promise.all([startDemoServer(), startMcp2Server(), openBrowser()])
    page = browser.page
    await page.goto(new URL("mcp.html", demo.url).href)
  })

  after(async () => {
    await browser?.close()
    await mcp?.close()
    demo?.child.kill()
  })

  const shot = (name) => page.screenshot({ path: join(shots, `mcp-stateless-${name}.png`), fullPage: true })

  // The page's model: call ops_deploy once, then say what the tool answered.
  const MODEL = `async ({ messages }) => {
    const tool = messages.findLast((m) => m.role === "tool")
    return tool ? { content: "Done: " + tool.content } : { toolCalls: [{ id: "c1", name: "ops_deploy", arguments: { env: "prod" } }] }
  }`

  it("halts on the server's input request with no waitFor and keeps requestState in the pending JSON", async () => {
    const halted = await page.evaluate(
      async ({ url, model }) => {
        const { createToolkit, createInProcessClient } = await import("/pkg/index.js")
        const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { ops: { url } } } })
        const client = createInProcessClient({ model: "page", generate: (0, eval)(model) })
        const halted = await client.run("Deploy prod", { toolkit })
        await toolkit.close()
        localStorage.setItem("mrtr-halted", JSON.stringify(halted))
        document.body.innerHTML = "<h1>Halted: waiting for input</h1><pre id=pending></pre>"
        document.querySelector("#pending").textContent = JSON.stringify(halted.pending, null, 2)
        return halted
      },
      { url: mcp.url("/mcp"), model: MODEL },
    )
    assert.equal(halted.status, "pending")
    assert.equal(halted.pending.kind, "input")
    assert.equal(halted.pending.prompt, "Deploy to prod?")
    assert.equal(halted.pending.data.server, "ops")
    assert.deepEqual(halted.pending.data.schema.required, ["confirm"])
    const first = mcp.requests.findLast((r) => r.body?.method === "tools/call")
    assert.equal(first.body.params.requestState, undefined)
    assert.match(halted.pending.data.requestState, /^v1\./)
    await shot("halted")
  })

  it("after a reload, runWithAnswer sends the call again with inputResponses and the same requestState", async () => {
    await page.reload()
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("mrtr-halted")))
    const before = mcp.requests.length
    const result = await page.evaluate(
      async ({ url, model }) => {
        const { createToolkit, createInProcessClient } = await import("/pkg/index.js")
        const halted = JSON.parse(localStorage.getItem("mrtr-halted"))
        const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { ops: { url } } } })
        const client = createInProcessClient({ model: "page", generate: (0, eval)(model) })
        const answer = { id: halted.pending.id, ok: true, data: { confirm: true, who: "the page" } }
        const r = await client.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer })
        await toolkit.close()
        document.body.innerHTML = "<h1>Resumed after the reload</h1><pre id=text></pre>"
        document.querySelector("#text").textContent = r.text
        return { status: r.status, text: r.text }
      },
      { url: mcp.url("/mcp"), model: MODEL },
    )
    assert.deepEqual(result, { status: "done", text: "Done: deployed prod by the page" })
    const retries = mcp.requests.slice(before).filter((r) => r.body?.method === "tools/call")
    assert.equal(retries.length, 1)
    assert.equal(retries[0].body.params.requestState, stored.pending.data.requestState, "byte for byte")
    assert.deepEqual(retries[0].body.params.inputResponses, { confirm: { action: "accept", content: { confirm: true, who: "the page" } } })
    assert.equal(retries[0].headers["mcp-name"], "deploy")
    assert.match(retries[0].headers.origin, /^http:\/\/127\.0\.0\.1:\d+$/)
    await shot("resumed")
    // Each toolkit subscribed to the server's tools/list_changed (subscriptions/listen); its
    // close() aborted that stream's fetch, which Chromium reports as a failed request: those,
    // one per subscription, and nothing else.
    const listens = mcp.requests.filter((r) => r.body?.method === "subscriptions/listen")
    assert.equal(listens.length, 2)
    const aborted = listens.map(() => `requestfailed: ${mcp.url("/mcp")} net::ERR_ABORTED`)
    await eventually(() => browser.problems.length >= aborted.length, "the aborted subscriptions reported")
    assert.deepEqual(browser.problems, aborted)
  })
})
