// The agents page in Chromium: a lead delegates to a researcher and a writer; the researcher's
// fetch_page asks for approval. The page shows the inner call and the sub-agent chain, the run
// halts into IndexedDB, the page is reloaded while it waits and rebuilds the runtime from the
// saved state, and Approve finishes the run with every tool and finished turn run once (counts
// kept across the reload). Then the same with Decline.
import assert from "node:assert/strict"
import { join } from "node:path"
import { before, describe, it } from "node:test"
import { onDemoPage, shots } from "./browser.mjs"

const URL_ = "https://component-model.bytecodealliance.org/"
const CALL = `fetch_page({url: ${JSON.stringify(URL_)}})`

describe("the agents page: an approval from inside a sub-agent survives a reload", () => {
  const demo = onDemoPage(undefined, "agents.html")
  let page
  before(async () => {
    page = demo.page
    await ready()
  })

  const ready = () => page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  const text = (selector) => page.textContent(selector)

  async function counts() {
    return page.$$eval("[data-count]", (cells) => Object.fromEntries(cells.map((c) => [c.dataset.count, Number(c.textContent)])))
  }

  async function assertApproval() {
    await page.locator("#approval").waitFor({ state: "visible" })
    assert.equal(await text("#approval-chain"), "lead → researcher")
    assert.equal(await text("#approval-request"), `researcher → fetch_page wants to run ${CALL}`)
    assert.equal(await text("#approval-prompt"), `Fetch ${URL_}?`)
    const detail = JSON.parse(await text("#approval-path"))
    assert.deepEqual(detail, { "data.path": ["root", "lead.1"], asker: "root/lead.1/researcher.1", tool: "fetch_page", args: { url: URL_ } })
    assert.equal(await page.getAttribute("#answer", "data-state"), "pending")
  }

  /** Starts a run and reloads the page while it waits; resolves with the request id shown. */
  async function startAndReload(name) {
    await page.click("#start")
    await assertApproval()
    // Parallel delegation: the writer finished, the researcher asked once; nothing else ran.
    const halted = { lead: 1, researcher: 2, writer: 1, search: 1, fetchAsked: 1, fetchRan: 0 }
    assert.deepEqual(await counts(), halted)
    const id = await page.getAttribute("#approval", "data-request-id")
    assert.match(id, /^pnd-[0-9a-f]{16}$/)
    await page.screenshot({ path: join(shots, `agents-${name}-approval.png`) })

    await page.reload()
    await ready()
    assert.equal(await text("#status"), "Ready: restored a halted run")
    await assertApproval()
    assert.equal(await page.getAttribute("#approval", "data-request-id"), id, "the same request after the reload")
    assert.deepEqual(await counts(), halted, "the counts were kept")
    assert.match(await text("#saved"), /^Restored 4 handles from IndexedDB\.$/)
    await page.screenshot({ path: join(shots, `agents-${name}-after-reload.png`) })
    return id
  }

  it("Approve after a reload resumes the run: it finishes, and nothing ran twice", async () => {
    await startAndReload("approve")
    await page.click("#approve")
    await page.locator('#answer[data-state="done"]').waitFor()
    const host = new URL(URL_).host
    assert.equal(
      await text("#answer"),
      "Brief: WebAssembly components\n" +
        "Draft: WebAssembly components let programs written in different languages share typed interfaces. Each component runs in its own sandbox.\n" +
        `Research: ${host} says components are built from WIT interfaces and composed without shared memory.`,
    )
    assert.equal(await page.isVisible("#approval"), false)
    // The halted turns replayed (lead +2, researcher +3 model calls); the writer's finished turn
    // did not run again, search answered from the checkpoint, fetch_page ran once, with the answer.
    assert.deepEqual(await counts(), { lead: 3, researcher: 5, writer: 1, search: 1, fetchAsked: 1, fetchRan: 1 })
    const trace = await text("#trace")
    assert.match(trace, /root\/lead\.1\/researcher\.1: suspended→idle \(Answer accepted, checkpoint restored\)/)
    await page.screenshot({ path: join(shots, "agents-approve-finished.png") })

    // Finished runs stay finished across a reload.
    await page.reload()
    await ready()
    assert.equal(await page.getAttribute("#answer", "data-state"), "done")
    assert.equal(await page.isVisible("#approval"), false)
    assert.deepEqual(await counts(), { lead: 3, researcher: 5, writer: 1, search: 1, fetchAsked: 1, fetchRan: 1 })
  })

  it("Decline after a reload: fetch_page never runs and the lead still writes its brief", async () => {
    await startAndReload("decline")
    await page.click("#decline")
    await page.locator('#answer[data-state="done"]').waitFor()
    assert.match(await text("#answer"), /\nResearch: the page was not read \(fetching it was declined\); the search results are all I have\.$/)
    const after = await counts()
    assert.deepEqual([after.writer, after.search, after.fetchAsked, after.fetchRan], [1, 1, 1, 0])
    await page.screenshot({ path: join(shots, "agents-decline-finished.png") })
  })

  it("logged no console errors", () => {
    assert.deepEqual(demo.problems, [])
  })
})
