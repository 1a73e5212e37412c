// Playwright e2e on the demo's Toolkit panel, and on the chat's compaction marker ("N earlier
// messages summarised", read from the summary's metadata): scripts/serve.mjs on a free port, www/
// in headless Chromium. Screenshots of each state go to target/e2e/demo-*.png. (The chat's
// suspensions are covered by durable.test.mjs.)
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { onDemoPage, openBrowser, shots, startDemoServer } from "./browser.mjs"

const TOOLS = ["transfer_money", "book_table", "connect_calendar", "ask_user", "calculator", "clock", "roll_dice"]

describe("the demo page: its Toolkit panel", () => {
  let server, browser, page
  const wasmTypes = []

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    page = browser.page
    page.on("response", (r) => r.url().endsWith(".wasm") && wasmTypes.push(r.headers()["content-type"]))
    await page.goto(server.url)
    await page.locator('#status:not([data-state="loading"])').waitFor({ timeout: 15_000 })
    await page.click("#nav-toolkit")
    await page.locator("#toolkit-view").waitFor({ state: "visible" })
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  const shot = (name) => page.screenshot({ path: join(shots, `demo-${name}.png`), fullPage: true })

  const run = async (tool, args) => {
    await page.selectOption("#tool-select", tool)
    await page.fill("#tool-args", args)
    await page.click("#run")
    await page.locator('#result:not([data-state="running"]):not([data-state="idle"])').waitFor()
    return { state: await page.getAttribute("#result", "data-state"), text: await page.textContent("#result") }
  }

  it("loads the module and lists the tools", async () => {
    assert.equal(await page.textContent("#status"), `Ready · ${TOOLS.length} tools`, browser.problems.join("\n"))
    assert.deepEqual(wasmTypes, ["application/wasm"])
    const names = await page.locator("#tools .tool-name").allTextContents()
    assert.deepEqual(names, TOOLS)
    const calculator = page.locator('#tools li[data-tool="calculator"]')
    assert.match(await calculator.textContent(), /Applies an arithmetic operation to two numbers/)
    await calculator.locator("summary").click()
    const schema = JSON.parse(await calculator.locator("pre").textContent())
    assert.deepEqual(schema.required, ["a", "b", "op"])
    await shot("loaded")
  })

  it("runs a tool with good arguments", async () => {
    const { state, text } = await run("calculator", '{"a": 6, "b": 7, "op": "multiply"}')
    assert.equal(state, "ok")
    assert.deepEqual(JSON.parse(text), { output: "42", isError: false })
    await shot("run-ok")
  })

  it("shows the validation error for bad arguments", async () => {
    const { state, text } = await run("calculator", '{"a": 6, "op": "power"}')
    assert.equal(state, "error")
    const result = JSON.parse(text)
    assert.equal(result.isError, true)
    assert.match(result.output, /^Invalid arguments for tool "calculator": /)
    assert.match(result.output, /required property "b" is missing/)
    assert.match(result.output, /op: must be one of/)
    await shot("run-invalid")
    const notJson = await run("calculator", "{a: 6")
    assert.equal(notJson.state, "error")
    assert.match(notJson.text, /^The arguments are not valid JSON: /)
  })

  it("reports a tool's own failure as an error result", async () => {
    const { state, text } = await run("calculator", '{"a": 1, "b": 0, "op": "divide"}')
    assert.equal(state, "error")
    assert.deepEqual(JSON.parse(text), { output: "division by zero", isError: true })
  })

  it("rolls dice within their range", async () => {
    const { state, text } = await run("roll_dice", '{"count": 3, "sides": 6}')
    assert.equal(state, "ok")
    const { rolls, total } = JSON.parse(JSON.parse(text).output)
    assert.equal(rolls.length, 3)
    assert.ok(rolls.every((r) => Number.isInteger(r) && r >= 1 && r <= 6), String(rolls))
    assert.equal(total, rolls[0] + rolls[1] + rolls[2])
  })

  for (const [adapter, nameOf] of [
    ["anthropic", (json) => json.map((t) => t.name)],
    ["gemini", (json) => json[0].functionDeclarations.map((t) => t.name)],
    ["openai", (json) => json.map((t) => t.function.name)],
  ]) {
    it(`shows the ${adapter} schemas in their tab`, async () => {
      await page.click(`.tab[data-adapter="${adapter}"]`)
      assert.equal(await page.getAttribute(`.tab[data-adapter="${adapter}"]`, "aria-selected"), "true")
      const text = await page.textContent("#schema-json")
      assert.match(text, /"calculator"/)
      assert.deepEqual(nameOf(JSON.parse(text)), TOOLS)
      await shot(`tab-${adapter}`)
    })
  }

  it("runs a suspending tool to its suspension", async () => {
    const { state, text } = await run("transfer_money", '{"to": "Ada", "amount": 5}')
    assert.equal(state, "pending")
    const result = JSON.parse(text)
    assert.equal(result.metadata.pending.kind, "approval")
    assert.equal(result.output, "Send 5 EUR to Ada?")
    await shot("run-pending")
  })

  it("logs no console errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})

describe("the demo chat: compaction shows what it summarised", () => {
  const browser = onDemoPage(undefined, "/")
  let page

  before(async () => {
    page = browser.page
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  const idle = () => page.locator('body[data-state="idle"]').waitFor({ timeout: 15_000 })
  const send = async (prompt) => {
    await idle()
    await page.fill("#prompt", prompt)
    await page.click("#send")
    await idle()
  }

  /** The summaries of the stored transcript (IndexedDB, the client's store): their metadata. */
  const storedSummaries = () =>
    page.evaluate(async () => {
      const { IndexedDbConversationStore } = await import("/pkg/index.js")
      const store = new IndexedDbConversationStore("toolnexus-demo", "conversations")
      const { id } = JSON.parse(localStorage.getItem("toolnexus-demo:conversation"))
      const messages = (await store.get(id)) ?? []
      store.close()
      return { all: messages.length, summaries: messages.filter((m) => m.metadata?.compacted).map((m) => ({ ...m.metadata.compacted, content: m.content })) }
    })

  it("a long enough chat is compacted: the marker says how many earlier messages the summary stands for", async () => {
    await page.click("#new-chat")
    const asks = ["What is 6 times 7?", "Roll 3 dice", "What time is it in Tokyo?", "What is 12 plus 30?", "Roll 2 dice", "What time is it in Paris?", "What is 9 minus 4?", "Roll 4 dice"]
    const prompts = [...asks, ...asks, ...asks]
    let sent = 0
    while (sent < prompts.length && (await page.locator(".summary-marker").count()) === 0) await send(prompts[sent++])
    assert.ok(sent < prompts.length, "compaction happened before the prompts ran out")
    const marker = page.locator(".summary-marker")
    assert.equal(await marker.count(), 1, "one summary leads the thread")
    const first = await storedSummaries()
    assert.equal(first.summaries.length, 1)
    const { messages, tokens, content } = first.summaries[0]
    assert.ok(messages >= 4, `it stands for several messages: ${messages}`)
    assert.equal(await marker.locator(".summary-label").textContent(), `${messages} earlier messages summarised`)
    assert.equal(await marker.getAttribute("data-tokens"), String(tokens))
    await marker.locator("summary").click()
    const text = await marker.locator(".summary-text").textContent()
    assert.equal(`[Summary of earlier conversation]\n${text}`, content)
    assert.match(text, /^- The user asked: What is 6 times 7\?/, "the demo's summary lists the earlier requests")
    await page.screenshot({ path: join(shots, "demo-compacted.png"), animations: "disabled" })

    // Talking on, the next compaction folds the first summary in: the count only grows.
    while (sent < prompts.length && (await storedSummaries()).summaries[0].messages === messages) await send(prompts[sent++])
    const later = (await storedSummaries()).summaries
    assert.equal(later.length, 1, "still one summary")
    assert.ok(later[0].messages > messages, `${later[0].messages} > ${messages}`)
    assert.equal(await page.locator(".summary-marker .summary-label").textContent(), `${later[0].messages} earlier messages summarised`)
    assert.match(await page.locator(".msg.assistant .bubble").last().textContent(), /\S/, "the chat goes on")
    await page.screenshot({ path: join(shots, "demo-compacted-again.png"), animations: "disabled" })
    assert.deepEqual(browser.problems, [])
  })
})
