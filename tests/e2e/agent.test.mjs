// The agent page in Chromium: a run whose tool suspends, resolved by clicking the page's dialog
// (waitFor is the dialog), and the same run halting as JSON when the page has no waitFor.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"

describe("the agent page: waitFor answered in-page", () => {
  let server, browser, page

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    page = browser.page
    await page.goto(new URL("agent.html", server.url).href)
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  async function send(prompt) {
    await page.fill("#prompt", prompt)
    await page.click("#ask")
  }

  it("shows the approval dialog with the request, and Approve resumes the run", async () => {
    await send("Pay Ada 42 EUR")
    const dialog = page.locator("#approval")
    await dialog.waitFor({ state: "visible" })
    assert.equal(await page.textContent("#approval-prompt"), "Send 42 EUR to Ada?")
    assert.deepEqual(JSON.parse(await page.textContent("#approval-args")), { to: "Ada", amount: 42 })
    await page.screenshot({ path: join(shots, "agent-approval-dialog.png") })
    await page.click("#approve")
    await page.locator('#answer[data-state="done"]').waitFor()
    assert.equal(await page.textContent("#answer"), "The transfer tool answered: Sent 42 EUR to Ada.")
    const result = JSON.parse(await page.textContent("#run-result"))
    assert.equal(result.status, "done")
    assert.equal(result.turns, 2)
    assert.deepEqual(result.toolCalls.map((c) => [c.name, c.output, c.isError]), [["transfer", "Sent 42 EUR to Ada.", false]])
    await page.screenshot({ path: join(shots, "agent-approved.png") })
  })

  it("Decline feeds the model a declined result, and the run still finishes", async () => {
    await send("Pay Bob 7 EUR")
    await page.locator("#approval").waitFor({ state: "visible" })
    await page.click("#decline")
    await page.locator('#answer[data-state="done"]').waitFor()
    assert.equal(await page.textContent("#answer"), "The transfer tool answered: declined/expired: Send 7 EUR to Bob?")
    const result = JSON.parse(await page.textContent("#run-result"))
    assert.equal(result.toolCalls[0].isError, true)
    await page.screenshot({ path: join(shots, "agent-declined.png") })
  })

  it("without waitFor the run halts as plain JSON with the pending request", async () => {
    await page.check("#durable")
    await send("Pay Cy 3 EUR")
    await page.locator('#answer[data-state="pending"]').waitFor()
    assert.equal(await page.isVisible("#approval"), false)
    const result = JSON.parse(await page.textContent("#run-result"))
    assert.equal(result.status, "pending")
    assert.equal(result.pending.kind, "approval")
    assert.equal(result.pending.prompt, "Send 3 EUR to Cy?")
    assert.match(result.pending.id, /^pnd-[0-9a-f]{16}$/)
    await page.screenshot({ path: join(shots, "agent-halted.png") })
    await page.uncheck("#durable")
  })

  it("logged no console errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
