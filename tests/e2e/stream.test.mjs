// The streaming page in Chromium: a run streamed from a local SSE stub on another origin (CORS,
// with its preflight) renders each delta as it arrives and ends with the whole text; Stop aborts
// the run mid-stream, the page shows the AbortError, and the stub sees the connection closed.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"
import { startSseStub, sse, streamOf } from "../js/support/sse-stub.mjs"

const PARTS = ["Once ", "upon ", "a ", "time, ", "a ", "stream ", "arrived ", "piece ", "by ", "piece."]

describe("the streaming page", () => {
  let server, stub, browser, page

  before(async () => {
    server = await startDemoServer()
    stub = await startSseStub({ cors: true })
    browser = await openBrowser()
    page = browser.page
  })

  after(async () => {
    await browser?.close()
    await stub?.close()
    server?.child.kill()
  })

  async function open(style) {
    const base = style === "openai" ? stub.openaiBaseUrl : stub.anthropicBaseUrl
    const url = new URL(`stream.html?style=${style}&model=m&base=${encodeURIComponent(base)}`, server.url)
    await page.goto(url.href)
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  }

  for (const style of ["openai", "anthropic"]) {
    it(`${style}: renders the deltas incrementally, then the final text`, async () => {
      stub.script(sse(streamOf(style, PARTS), { cut: [9], gapMs: 60 }))
      await open(style)
      await page.click("#send")
      await page.waitForFunction(() => Number(document.querySelector("#output").dataset.deltas) >= 3)
      const mid = await page.evaluate(() => ({ text: document.querySelector("#output").textContent, state: document.querySelector("#output").dataset.state }))
      assert.equal(mid.state, "streaming")
      assert.ok(PARTS.join("").startsWith(mid.text) && mid.text.length < PARTS.join("").length, mid.text)
      await page.screenshot({ path: join(shots, `stream-${style}-incremental.png`) })
      await page.locator('#output[data-state="done"]').waitFor({ timeout: 10_000 })
      assert.equal(await page.textContent("#output"), PARTS.join(""))
      const renders = await page.evaluate(() => window.renders)
      assert.equal(renders.length, PARTS.length)
      renders.forEach((r, i) => assert.equal(r.text, PARTS.slice(0, i + 1).join("")))
      assert.ok(renders.at(-1).at - renders[0].at > 200, "the deltas arrived over time, not at once")
      assert.equal(await page.textContent("#events"), "usage\ndone (done)\n")
      assert.equal(stub.requests.filter((r) => r.method === "POST").length, 1)
      assert.equal(stub.requests[0].body.stream, true)
      await page.screenshot({ path: join(shots, `stream-${style}-done.png`) })
    })
  }

  it("Stop aborts mid-stream: the page shows AbortError and the stub sees the request closed", async () => {
    stub.script(sse(streamOf("openai", Array.from({ length: 80 }, (_, i) => `word${i} `)), { cut: [40], gapMs: 80 }))
    await open("openai")
    await page.click("#send")
    await page.waitForFunction(() => Number(document.querySelector("#output").dataset.deltas) >= 2)
    await page.click("#stop")
    await page.locator('#output[data-state="error"]').waitFor({ timeout: 5_000 })
    const error = await page.textContent("#error")
    assert.match(error, /^AbortError aborted: The run was aborted/)
    const shown = await page.textContent("#output")
    assert.ok(shown.startsWith("word0 word1 ") && !shown.includes("word79"), shown)
    const post = stub.requests.find((r) => r.method === "POST")
    assert.equal(await post.closed, true, "the stub saw the connection closed before the end")
    await page.screenshot({ path: join(shots, "stream-stopped.png") })
  })

  it("logged no console errors (an aborted stream is the only failed request)", () => {
    const problems = browser.problems.filter((p) => !/^requestfailed: .*\/v1\/chat\/completions net::ERR_ABORTED$/.test(p))
    assert.deepEqual(problems, [])
  })
})
