// The chat page in Chromium: every suspension shape of the demo (approve, decline that the model
// explains, a form from data.schema, a question, a sign-in on login.html that leaves the page and
// comes back), a reload while an approval waits, a tampered return, and streamed text. The
// halted run must be in IndexedDB before the page asks. Screenshots: target/e2e/durable-*.png.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"

describe("the chat page: durable suspensions", () => {
  let server, browser, page

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    page = browser.page
    await page.goto(server.url)
    await ready()
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  const ready = () => page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  const idle = () => page.locator('body[data-state="idle"]').waitFor({ timeout: 15_000 })
  const shot = (name) => page.screenshot({ path: join(shots, `durable-${name}.png`), animations: "disabled" })
  const lastAnswer = () => page.locator(".msg.assistant:not(.typing) .bubble").last().textContent()
  const lastCard = () => page.locator(".tool-card").last()

  async function send(prompt) {
    await idle()
    await page.fill("#prompt", prompt)
    await page.click("#send")
  }

  /** What IndexedDB holds for the current conversation: the transcript and the halted run. */
  function stored() {
    return page.evaluate(async () => {
      const { IndexedDbConversationStore } = await import("/pkg/index.js")
      const store = new IndexedDbConversationStore("toolnexus-demo", "conversations")
      const { id } = JSON.parse(localStorage.getItem("toolnexus-demo:conversation"))
      const out = { messages: (await store.get(id)) ?? [], halted: (await store.loadPending(id)) ?? null }
      store.close()
      return out
    })
  }

  /** Every tool call of the transcript has exactly one result, in order, and none is `prompt`. */
  function assertBalanced(messages, placeholder) {
    const calls = messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? [])
    const results = messages.filter((m) => m.role === "tool")
    assert.deepEqual(results.map((r) => r.tool_call_id), calls)
    assert.ok(!results.some((r) => r.content === placeholder), "the placeholder was replaced")
  }

  it("opens as a chat on the built-in demo model", async () => {
    assert.equal(await page.textContent("#model-title"), "Demo model")
    assert.match(await page.textContent("#model-detail"), /no network/)
    assert.equal(await page.isVisible("#welcome"), true)
    await shot("empty")
  })

  it("approve: the dialog shows the prompt and the arguments, and Approve resumes the run", async () => {
    await send("Pay Ada 42 EUR for the concert")
    await page.locator("#approval").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#approval-prompt"), "Send 42 EUR to Ada?")
    const args = await page.locator("#approval-args .kv").evaluateAll((rows) => rows.map((r) => [r.dataset.key, r.querySelector("dd").textContent]))
    assert.deepEqual(args, [["to", "Ada"], ["amount", "42"], ["currency", "EUR"]])
    const { halted } = await stored()
    assert.equal(halted?.status, "pending", "the halted run is stored before the dialog shows")
    assert.equal(halted.pending.prompt, "Send 42 EUR to Ada?")
    assert.equal(await lastCard().getAttribute("data-state"), "waiting")
    await shot("approval-dialog")
    await page.click("#approve")
    await idle()
    assert.match(await lastAnswer(), /^Done\. Sent 42 EUR to Ada\. Reference TX-\d{4}\./)
    assert.equal(await lastCard().getAttribute("data-state"), "done")
    const after = await stored()
    assert.equal(after.halted, null, "answered: no longer pending")
    assertBalanced(after.messages, "Send 42 EUR to Ada?")
    await shot("approved")
  })

  it("decline: the model gets the refusal and explains it", async () => {
    await send("Pay Bob 7 EUR")
    await page.locator("#approval").waitFor({ state: "visible" })
    await page.click("#decline")
    await idle()
    assert.equal(
      await lastAnswer(),
      "You declined the transfer, so I did not send anything: 7 EUR are still in your account and Bob was not contacted. If you'd like to send a different amount, or to someone else, just tell me.",
    )
    assert.equal(await lastCard().getAttribute("data-state"), "declined")
    const { messages } = await stored()
    assert.equal(messages.filter((m) => m.role === "tool").at(-1).content, "declined/expired: Send 7 EUR to Bob?")
    await shot("declined-explained")
  })

  it("form input: the request's data.schema renders as a form whose values are the answer", async () => {
    await send("Book a table at Chez Ada for tonight")
    await page.locator("#input-dialog").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#input-prompt"), "A few details for your table at Chez Ada")
    const name = page.locator('#input-fields [name="name"]')
    assert.equal(await name.getAttribute("type"), "text")
    assert.equal(await page.getAttribute('#input-fields [name="guests"]', "type"), "number")
    assert.equal(await page.getAttribute('#input-fields [name="guests"]', "max"), "12")
    assert.deepEqual(await page.locator('#input-fields [name="time"] option').allTextContents(), ["18:30", "19:30", "20:30", "21:30"])
    assert.equal(await page.getAttribute('#input-fields [name="terrace"]', "type"), "checkbox")
    await page.click("#input-submit")
    assert.equal(await page.isVisible("#input-dialog"), true, "a required field is empty: the form stays open")
    await name.fill("Ada Lovelace")
    await page.fill('#input-fields [name="guests"]', "4")
    await page.selectOption('#input-fields [name="time"]', "20:30")
    await page.check('#input-fields [name="terrace"]')
    await shot("form")
    await page.click("#input-submit")
    await idle()
    assert.match(await lastAnswer(), /^Your table is booked! Booked Chez Ada for 4 at 20:30 on the terrace, under Ada Lovelace\. Confirmation BK-\d{4}\./)
    await shot("form-done")
  })

  it("question: ask_user offers choices and takes a typed answer", async () => {
    await send("Plan a weekend trip for me")
    await page.locator("#question-dialog").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#question-prompt"), "Where would you like to spend the weekend?")
    assert.deepEqual(await page.locator("#question-options .option").allTextContents(), ["Lisbon", "Kyoto", "Reykjavík"])
    await page.fill("#question-answer", "Porto")
    await shot("question")
    await page.press("#question-answer", "Enter")
    await idle()
    assert.match(await lastAnswer(), /^Porto, great choice!/)
  })

  it("authorization: a full-page redirect to login.html and back resumes the run from IndexedDB", async () => {
    await send("What's on my calendar today?")
    await page.locator("#auth-dialog").waitFor({ state: "visible" })
    const { halted } = await stored()
    assert.equal(halted.pending.kind, "authorization")
    const url = new URL(halted.pending.url)
    assert.equal(url.pathname, "/login.html")
    assert.equal(url.searchParams.get("state"), halted.pending.id)
    await shot("auth-dialog")
    await page.click("#auth-continue")
    await page.waitForURL(/\/login\.html\?/)
    await page.locator("#login-allow").waitFor()
    await shot("login-page")
    await page.click("#login-allow")
    await page.waitForURL((u) => u.pathname === "/")
    await ready()
    await idle()
    assert.match(await lastAnswer(), /^You're connected to DemoCal\. Here is your day:\n• 09:30 Stand-up/)
    assert.equal(new URL(page.url()).search, "", "the code is gone from the address bar")
    const after = await stored()
    assert.equal(after.halted, null)
    assertBalanced(after.messages, halted.pending.prompt)
    await shot("auth-resumed")
  })

  it("authorization denied on the login page resumes as a refusal", async () => {
    await send("Show my agenda")
    await page.locator("#auth-dialog").waitFor({ state: "visible" })
    await page.click("#auth-continue")
    await page.waitForURL(/\/login\.html\?/)
    await page.click("#login-deny")
    await page.waitForURL((u) => u.pathname === "/")
    await idle()
    assert.equal(await lastAnswer(), "The sign-in was cancelled, so I can't read your calendar. You can connect DemoCal any time.")
  })

  it("a reload while an approval waits still resumes: the page offers it again", async () => {
    await send("Pay Cy 3 EUR")
    await page.locator("#approval").waitFor({ state: "visible" })
    await page.reload()
    await ready()
    await page.locator("#pending-banner").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#pending-prompt"), "Send 3 EUR to Cy?")
    assert.equal(await lastCard().getAttribute("data-state"), "waiting")
    assert.equal(await page.isVisible("#approval"), false, "nothing is asked until the user says so")
    await shot("reload-offer")
    await page.click("#resume-pending")
    await page.locator("#approval").waitFor({ state: "visible" })
    assert.equal(await page.textContent("#approval-prompt"), "Send 3 EUR to Cy?")
    await page.click("#approve")
    await idle()
    assert.match(await lastAnswer(), /^Done\. Sent 3 EUR to Cy\./)
    assert.equal(await page.isVisible("#pending-banner"), false)
    await shot("reload-resumed")
  })

  it("a return whose state matches no waiting request is refused and the run keeps waiting", async () => {
    await send("What's on my calendar?")
    await page.locator("#auth-dialog").waitFor({ state: "visible" })
    await page.goto(new URL("/?state=auth-forged&code=dc_0123456789abcdef", server.url).href)
    await ready()
    await page.locator("#error").waitFor({ state: "visible" })
    assert.match(await page.textContent("#error-text"), /^invalid_resume: cannot resume: the answer's id "auth-forged" does not match/)
    await page.locator("#pending-banner").waitFor({ state: "visible" })
    await shot("forged-return")
    await page.click("#discard-pending")
    await idle()
    assert.match(await lastAnswer(), /^The sign-in was cancelled/)
    assert.equal(await page.isVisible("#error"), false)
  })

  it("streams the model's text as it arrives", async () => {
    await page.click("#new-chat")
    await page.evaluate(() => {
      window.deltas = 0
      new MutationObserver((records) => {
        for (const r of records) if (r.target.closest?.(".bubble.streaming") || r.target.parentElement?.closest(".bubble.streaming")) window.deltas++
      }).observe(document.querySelector("#thread"), { childList: true, subtree: true, characterData: true })
    })
    await send("Hello! What can you do?")
    await page.locator(".bubble.streaming").waitFor()
    await shot("streaming")
    await idle()
    assert.match(await lastAnswer(), /^I'm the built-in demo model/)
    assert.ok((await page.evaluate(() => window.deltas)) > 10, "many deltas rendered one by one")
    await send("What is 6 times 7?")
    await idle()
    assert.equal(await lastAnswer(), "6 × 7 = 42")
    await shot("streamed")
  })

  it("the settings say where the key is kept and require consent for Anthropic", async () => {
    await page.click("#open-settings")
    await page.check('input[name="source"][value="endpoint"]')
    await page.selectOption("#style", "anthropic")
    await page.fill("#base-url", "https://api.anthropic.com")
    await page.fill("#model", "claude-sonnet-4-5")
    assert.match(await page.textContent("#key-where"), /this page's memory only/)
    await page.check("#remember-key")
    assert.match(await page.textContent("#key-where"), /sessionStorage/)
    await page.click("#settings-save")
    assert.match(await page.textContent("#settings-error"), /direct browser access/)
    assert.equal(await page.isVisible("#settings-dialog"), true)
    await shot("settings")
    await page.click("#settings-cancel")
    assert.equal(await page.textContent("#model-title"), "Demo model", "nothing was saved")
  })

  it("logged no console errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
