// The MCP page in Chromium: the page connects straight to the official SDK server (started
// here on another origin, with CORS), lists its tools, calls one, and answers a form
// elicitation in its dialog; a broken server shows as failed. Screenshots: target/e2e/mcp-*.png.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"
import { startMcpServer } from "../js/support/mcp-server.mjs"

describe("the MCP page: a remote MCP server used from the browser", () => {
  let demo, mcp, browser, page

  before(async () => {
    ;[demo, mcp, browser] = await Promise.all([startDemoServer(), startMcpServer(), openBrowser()])
    page = browser.page
    await page.goto(new URL(`mcp.html?server=${encodeURIComponent(mcp.url("/mcp"))}`, demo.url).href)
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  after(async () => {
    await browser?.close()
    await mcp?.close()
    demo?.child.kill()
  })

  const shot = (name) => page.screenshot({ path: join(shots, `mcp-${name}.png`), fullPage: true })

  async function call(tool, args) {
    await page.selectOption("#call-tool", tool)
    await page.fill("#call-args", JSON.stringify(args))
    await page.click("#call")
  }

  it("connects, lists the server's tools, and the session id is readable across origins", async () => {
    await page.click("#connect")
    await page.locator('#mcp-status[data-state="connected"]').waitFor()
    const names = await page.locator("#mcp-tools .tool-name").allTextContents()
    assert.deepEqual(names.slice(0, 3), ["demo_echo", "demo_add", "demo_fail"])
    assert.equal(names.length, 9)
    // posts[0] is the 2026-07-28 probe this 2025-11-25 server turns down, posts[1] initialize.
    const posts = mcp.requests.filter((r) => r.method === "POST")
    assert.equal(posts[0].body.method, "server/discover")
    const session = posts[2].headers["mcp-session-id"]
    assert.match(session, /^[0-9a-f-]{36}$/, "the page read Mcp-Session-Id from the response")
    assert.equal(posts[2].headers["mcp-protocol-version"], "2025-11-25")
    assert.match(posts[0].headers.origin, /^http:\/\/127\.0\.0\.1:\d+$/)
    await shot("connected")
  })

  it("calls a tool and shows its result", async () => {
    await call("demo_add", { a: 40, b: 2 })
    await page.locator('#call-result[data-state="ok"]').waitFor()
    assert.deepEqual(JSON.parse(await page.textContent("#call-result")), { output: '{"sum":42}', isError: false, metadata: { server: "demo" } })
    await call("demo_echo", { text: "from the page" })
    await page.waitForFunction(() => document.querySelector("#call-result").textContent.includes("from the page"))
    assert.equal(JSON.parse(await page.textContent("#call-result")).output, "echo: from the page")
    await shot("called")
  })

  it("answers a form elicitation in the page's dialog", async () => {
    await call("demo_ask_name", {})
    await page.locator("#elicit").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#elicit-prompt"), "What is your name?")
    await page.fill("#elicit-input", "Ada")
    await shot("elicitation")
    await page.click("#elicit-accept")
    await page.waitForFunction(() => document.querySelector("#call-result").textContent.includes("hello"))
    assert.equal(JSON.parse(await page.textContent("#call-result")).output, "hello Ada")
  })

  it("a tool error is an error result, and a broken server shows as failed", async () => {
    await call("demo_fail", {})
    await page.locator('#call-result[data-state="error"]').waitFor()
    assert.equal(JSON.parse(await page.textContent("#call-result")).output, "it broke\n\nbadly")
    await page.fill("#server-url", mcp.url("/error500"))
    await page.click("#connect")
    await page.locator('#mcp-status[data-state="failed"]').waitFor()
    assert.deepEqual(JSON.parse(await page.textContent("#mcp-status")).errors, { demo: "HTTP 500: boom" })
    assert.ok(mcp.requests.some((r) => r.method === "DELETE"), "reconnecting closed the old session")
    await shot("failed")
  })

  it("in the browser a local server is failed saying why, and a config path is unsupported", async () => {
    const got = await page.evaluate(async () => {
      const { createToolkit } = await import("/pkg/index.js")
      const warn = console.warn
      console.warn = () => {}
      try {
        const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { fs: { command: "npx" } } } })
        const path = await createToolkit({ mcpConfig: "./mcp.json" }).catch((e) => [e.code, e.message])
        return { status: toolkit.mcpStatus(), errors: toolkit.mcpErrors(), path }
      } finally {
        console.warn = warn
      }
    })
    assert.deepEqual(got.status, { fs: "failed" })
    assert.match(got.errors.fs, /^local \(command\) MCP servers need a process API .*a browser cannot start processes/)
    assert.equal(got.path[0], "unsupported")
    assert.match(got.path[1], /in a browser pass the parsed config object/)
  })

  it("logged no console errors", () => {
    // A server-side 500 is an expected failed request in the console, and so is the abort of
    // a session's standalone GET stream when the page closes its toolkit (at most one per GET
    // the server saw); nothing else may be.
    const abortedStream = `requestfailed: ${mcp.url("/mcp")} net::ERR_ABORTED`
    const aborted = browser.problems.filter((p) => p === abortedStream).length
    assert.ok(aborted <= mcp.requests.filter((r) => r.method === "GET").length, `${aborted} aborted requests`)
    // The 2026-07-28 probe this 2025-11-25 server turns down with a 400 is logged by Chromium
    // too (at most one per server/discover the server saw).
    const probe = "console: Failed to load resource: the server responded with a status of 400 (Bad Request)"
    const probes = browser.problems.filter((p) => p === probe).length
    assert.ok(probes <= mcp.requests.filter((r) => r.body?.method === "server/discover").length, `${probes} turned-down probes`)
    const unexpected = browser.problems.filter((p) => !p.includes("500 (Internal Server Error)") && p !== abortedStream && p !== probe)
    assert.deepEqual(unexpected, [])
  })
})
