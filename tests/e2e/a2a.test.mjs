// A2A outbound from a browser page (Chromium): the page's toolkit fetches the card of an agent
// built with the official @a2a-js/sdk on another origin (CORS, with its preflight), and a call
// completes through SendMessage + GetTask polls; an agent that sends no CORS headers is
// "failed" with a reason naming the headers it must allow, and the other agent still works.
import assert from "node:assert/strict"
import { after, before, describe, it } from "node:test"
import { onDemoPage } from "./browser.mjs"
import { startA2AServer } from "../js/support/a2a-server.mjs"

describe("A2A agents from a browser page", () => {
  let open, closed
  before(async () => {
    ;[open, closed] = await Promise.all([startA2AServer({ name: "Page Desk" }), startA2AServer({ name: "Closed Desk", cors: false })])
  })
  after(async () => {
    await open?.close()
    await closed?.close()
  })
  const browser = onDemoPage("a2a")

  it("calls an agent on another origin and reports the one CORS refuses", async () => {
    const out = await browser.page.evaluate(
      async ({ openCard, closedCard }) => {
        const m = await import("/pkg/index.js")
        const warn = console.warn
        const warnings = []
        console.warn = (...args) => warnings.push(args.join(" "))
        const toolkit = await m.createToolkit({
          builtins: false,
          agents: [m.agent({ card: closedCard }), m.agent({ card: openCard, pollEvery: 20, headers: { Authorization: "Bearer page-token-5150" } })],
        })
        console.warn = warn
        const result = await toolkit.execute("Page_Desk_review", { task: "review the page" })
        return {
          names: toolkit.tools().map((t) => t.name),
          status: toolkit.agentStatus(),
          reason: toolkit.agentErrors()[closedCard],
          output: result.output,
          state: result.metadata.state,
          warnings: warnings.length,
        }
      },
      { openCard: open.cardUrl, closedCard: closed.cardUrl },
    )
    assert.deepEqual(out.names, ["Page_Desk_review", "Page_Desk_plan_it"])
    assert.deepEqual(out.status, { [closed.cardUrl]: "failed", [open.cardUrl]: "connected" })
    assert.equal(out.output, "REVIEWED: review the page")
    assert.equal(out.state, "completed")
    assert.equal(out.warnings, 1)
    assert.match(out.reason, /^A2A Agent Card: could not reach .*: Failed to fetch\. From a browser page a refused CORS preflight fails the same way: the agent must allow this origin, GET and the request headers accept$/)
    const send = open.rpc("SendMessage").at(-1)
    assert.equal(send.headers.authorization, "Bearer page-token-5150")
    assert.equal(send.headers["a2a-version"], "1.0")
    assert.ok(open.requests.some((r) => r.method === "OPTIONS"), "the page's POST was preflighted")
  })

  it("logged no page errors but the refused agent's", () => {
    // Chromium logs the refusal itself (the CORS message and the failed request name the URL;
    // one "Failed to load resource" line does not).
    const refused = (p) => p.includes(closed.url) || p === "console: Failed to load resource: net::ERR_FAILED"
    assert.ok(browser.problems.some((p) => p.includes(closed.url)), browser.problems.join("\n"))
    assert.deepEqual(browser.problems.filter((p) => !refused(p)), [])
  })
})
