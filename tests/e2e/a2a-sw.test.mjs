// The A2A demo page (www/a2a.html) in Chromium: the page registers www/a2a-sw.js, whose
// `toolkit.handler({client, a2a})` serves an agent at /a2a-agent/; the page's own agent has it as
// a tool (`agent({card})`) and delegates a question to it. Checked: every request to /a2a-agent/
// was answered by the Service Worker (Playwright's `fromServiceWorker`, and the worker's own
// count of what it answered, which matches), the task is in the worker's store (GetTask), and,
// with the demo server stopped, the page reloads from the worker's cache and delegates again.
import assert from "node:assert/strict"
import { once } from "node:events"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"

describe("an agent in the page calls the agent its Service Worker serves over A2A", () => {
  let server, browser
  /** Every response to a request under /a2a-agent/ the page saw: [method path, fromServiceWorker]. */
  const agentResponses = []
  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    browser.page.on("response", (response) => {
      const url = new URL(response.url())
      if (url.pathname.startsWith("/a2a-agent/")) agentResponses.push([`${response.request().method()} ${url.pathname}`, response.fromServiceWorker()])
    })
  })
  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  const page = () => browser.page
  const text = (selector) => page().locator(selector).innerText()
  const workerStats = () =>
    page().evaluate(
      () =>
        new Promise((resolve) => {
          const { port1, port2 } = new MessageChannel()
          port1.onmessage = (event) => resolve(event.data)
          navigator.serviceWorker.controller.postMessage({ type: "a2a-stats" }, [port2])
        }),
    )

  it("registers the worker, which serves the Agent Card under /a2a-agent/", async () => {
    await page().goto(new URL("a2a.html", server.url).href)
    await page().locator('#status[data-state="ready"]').waitFor()
    const out = await page().evaluate(() => ({
      controller: navigator.serviceWorker.controller?.scriptURL,
      card: JSON.parse(document.querySelector("#card").textContent),
      tools: [...document.querySelectorAll("#tools .tool-name")].map((e) => e.textContent),
    }))
    assert.equal(out.controller, new URL("a2a-sw.js", server.url).href)
    const endpoint = new URL("a2a-agent/", server.url).href
    assert.equal(out.card.name, "Worker Desk")
    assert.equal(out.card.url, endpoint)
    assert.deepEqual(out.card.supportedInterfaces, [{ url: endpoint, protocolBinding: "JSONRPC", protocolVersion: "1.0" }])
    assert.deepEqual(
      out.card.skills.map((s) => s.id),
      ["everyday"],
    )
    assert.deepEqual(out.tools, ["Worker_Desk_everyday (a2a)"])
    assert.match(await text("#sw-status"), /^\/a2a-sw\.js: scope http:\/\/127\.0\.0\.1:\d+\/a2a, controls this page$/)
    await page().screenshot({ path: join(shots, "a2a-sw-registered.png"), fullPage: true })
  })

  it("delegates a question: SendMessage and GetTask are answered by the worker, the task is in its store", async () => {
    const before = await workerStats()
    const seen = agentResponses.length
    await page().locator("#prompt").fill("What is 6 times 7?")
    await page().locator("#ask").click()
    await page().locator('#delegation[data-state="ok"]').waitFor()
    await page().locator("#delegation").scrollIntoViewIfNeeded()
    await page().screenshot({ path: join(shots, "a2a-sw-call.png"), fullPage: true })
    await page().locator('#answer[data-state="done"]').waitFor()
    await page().locator("#task[data-state]").waitFor()

    assert.equal(await text("#answer"), "Worker Desk (in the Service Worker) says: 6 × 7 = 42")
    const delegation = await text("#delegation")
    assert.match(delegation, /^page agent → Worker_Desk_everyday \{"task":"What is 6 times 7\?"\}/)
    const taskId = await page().locator("#delegation").getAttribute("data-task-id")
    assert.match(taskId, /^[0-9a-f-]{36}$/)
    assert.match(delegation, new RegExp(`Worker Desk → task ${taskId} completed after \\d+ polls?, \\d+ ms\\n  "6 × 7 = 42"`))

    // GetTask, answered from the worker's store: the finished task with the answer as its artifact.
    const task = JSON.parse(await text("#task"))
    assert.equal(task.id, taskId)
    assert.deepEqual(task.status, { state: "completed" })
    assert.deepEqual(task.artifacts[0].parts, [{ kind: "text", text: "6 × 7 = 42" }])

    // Every request of this run went to /a2a-agent/ and was answered by the Service Worker, and
    // the worker counted the same requests: one SendMessage, the polls and the page's GetTask.
    const after = await workerStats()
    const ours = agentResponses.slice(seen)
    assert.ok(ours.length >= 3, JSON.stringify(ours))
    assert.deepEqual(
      ours.filter(([, fromWorker]) => !fromWorker),
      [],
      "answered by the network, not the worker",
    )
    assert.ok(ours.every(([what]) => what === "POST /a2a-agent/"), JSON.stringify(ours))
    assert.equal(after.requests - before.requests, ours.length)
    assert.equal(after.methods.SendMessage - (before.methods.SendMessage ?? 0), 1)
    assert.equal(after.methods.GetTask - (before.methods.GetTask ?? 0), ours.length - 1)
    assert.equal(after.tasks[taskId], "completed")
    assert.equal(await page().locator("#sw-count").getAttribute("data-count"), String(after.requests))
    await page().screenshot({ path: join(shots, "a2a-sw-answer.png"), fullPage: true })
  })

  it("toolkit.serve in the page rejects unsupported and points to toolkit.handler, for the A2A profile too", async () => {
    const out = await page().evaluate(async () => {
      const m = await import("/pkg/index.js")
      const toolkit = await m.createToolkit({ builtins: false })
      const client = m.createInProcessClient({ model: "unused", generate: () => ({ content: "unused" }) })
      const refusals = []
      for (const options of [{ client, a2a: { name: "page" } }, { mcp: {} }]) {
        try {
          await toolkit.serve("127.0.0.1:0", options)
          refusals.push("listening")
        } catch (e) {
          refusals.push({ code: e.code, handler: e.message.includes("toolkit.handler"), a2aWay: e.message.includes("under a path of its own, with `a2a.url`") })
        }
      }
      return refusals
    })
    assert.deepEqual(out, [
      { code: "unsupported", handler: true, a2aWay: true },
      { code: "unsupported", handler: true, a2aWay: true },
    ])
  })

  it("works offline: with the demo server stopped, the page reloads from the worker and delegates again", async () => {
    server.child.kill()
    await once(server.child, "exit")
    await assert.rejects(fetch(server.url), "the demo server is gone")
    await page().reload()
    await page().locator('#status[data-state="ready"]').waitFor()
    await page().locator(".example", { hasText: "Roll 3 dice" }).click()
    await page().locator('#answer[data-state="done"]').waitFor()
    assert.match(await text("#answer"), /^Worker Desk \(in the Service Worker\) says: You rolled [1-6], [1-6], [1-6]: \d+ in total\.$/)
    assert.equal(await page().locator("#task").getAttribute("data-state"), "completed")
    await page().screenshot({ path: join(shots, "a2a-sw-offline.png"), fullPage: true })
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
