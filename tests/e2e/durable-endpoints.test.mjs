// The chat page against real endpoints chosen in its settings, faked with Playwright routes
// (CORS included): OpenAI-style streaming with the key sent from memory and an approval resumed
// through the endpoint, and Anthropic only with the consent that sends the browser-access header.
import assert from "node:assert/strict"
import { after, before, describe, it } from "node:test"
import { openBrowser, startDemoServer } from "./browser.mjs"

describe("the chat page on a real endpoint", () => {
  let server, browser, page

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    page = browser.page
    await page.goto(server.url)
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  const idle = () => page.locator('body[data-state="idle"]').waitFor({ timeout: 15_000 })
  const lastAnswer = () => page.locator(".msg.assistant:not(.typing) .bubble").last().textContent()

  async function send(prompt) {
    await idle()
    await page.fill("#prompt", prompt)
    await page.click("#send")
  }

  it("a real endpoint from the settings: streamed, with the key, and the approval resumed", async () => {
    const seen = []
    const sse = (events) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n"
    const chunk = (delta, finish = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] })
    await page.route("https://llm.example.test/**", async (route) => {
      const req = route.request()
      const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST" }
      if (req.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors })
      const body = req.postDataJSON()
      seen.push({ headers: req.headers(), body })
      const call = { index: 0, id: "call_real", type: "function", function: { name: "transfer_money", arguments: '{"to":"Dee","amount":9}' } }
      if (body.messages.at(-1).role !== "tool") {
        return route.fulfill({ headers: { ...cors, "content-type": "text/event-stream" }, body: sse([chunk({ tool_calls: [call] }), chunk({}, "tool_calls")]) })
      }
      const text = `The endpoint saw: ${body.messages.at(-1).content}`
      const reply = { choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }
      return route.fulfill({ headers: { ...cors, "content-type": "application/json" }, body: JSON.stringify(reply) })
    })
    await page.click("#open-settings")
    await page.check('input[name="source"][value="endpoint"]')
    await page.selectOption("#style", "openai")
    await page.fill("#base-url", "https://llm.example.test/v1")
    await page.fill("#model", "gpt-test")
    await page.fill("#api-key", "sk-test-123")
    await page.uncheck("#remember-key")
    await page.click("#settings-save")
    assert.equal(await page.textContent("#model-title"), "gpt-test")
    assert.equal(await page.textContent("#model-detail"), "openai · llm.example.test")
    await send("Pay Dee 9 EUR")
    await page.locator("#approval").waitFor({ state: "visible" })
    await page.click("#approve")
    await idle()
    assert.match(await lastAnswer(), /^The endpoint saw: Sent 9 EUR to Dee\./)
    assert.equal(seen.length, 2)
    assert.equal(seen[0].headers.authorization, "Bearer sk-test-123")
    assert.equal(seen[0].body.stream, true, "the first call streamed")
    assert.equal(seen[0].body.messages[0].role, "system")
    assert.equal(await page.evaluate(() => sessionStorage.getItem("toolnexus-demo:api-key")), null, "the key stayed in memory")
    await page.unroute("https://llm.example.test/**")
    await page.click("#open-settings")
    await page.check('input[name="source"][value="demo"]')
    await page.click("#settings-save")
    assert.equal(await page.textContent("#model-title"), "Demo model")
  })

  it("Anthropic from the page: only with consent, which sends the browser-access header", async () => {
    const seen = []
    await page.route("https://claude.example.test/**", async (route) => {
      const req = route.request()
      const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST" }
      if (req.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors })
      seen.push({ headers: req.headers(), body: req.postDataJSON() })
      const events = [
        { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-test", content: [], usage: { input_tokens: 1, output_tokens: 0 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        ...["Hello ", "from ", "Claude."].map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
        { type: "message_stop" },
      ]
      const body = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("")
      return route.fulfill({ headers: { ...cors, "content-type": "text/event-stream" }, body })
    })
    await page.click("#open-settings")
    await page.check('input[name="source"][value="endpoint"]')
    await page.selectOption("#style", "anthropic")
    await page.fill("#base-url", "https://claude.example.test")
    await page.fill("#model", "claude-test")
    await page.fill("#api-key", "sk-ant-test")
    await page.check("#browser-access")
    await page.click("#settings-save")
    assert.equal(await page.isVisible("#settings-dialog"), false)
    assert.equal(await page.isVisible("#welcome"), true, "a new dialect starts a new conversation")
    await send("Hi")
    await idle()
    assert.equal(await lastAnswer(), "Hello from Claude.")
    assert.equal(seen[0].headers["anthropic-dangerous-direct-browser-access"], "true")
    assert.equal(seen[0].headers["x-api-key"], "sk-ant-test")
    assert.equal(seen[0].body.stream, true)
    await page.unroute("https://claude.example.test/**")
    await page.click("#open-settings")
    await page.check('input[name="source"][value="demo"]')
    await page.click("#settings-save")
  })

  it("logged no console errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
