// Playwright e2e on the demo's Toolkit panel: scripts/serve.mjs on a free port, www/ in headless
// Chromium. Screenshots of each state go to target/e2e/demo-*.png. (The chat itself is covered
// by durable.test.mjs.)
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"

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
