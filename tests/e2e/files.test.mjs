// The files page in Chromium: a scripted in-process model runs write, read and edit through one
// agent turn on the in-memory filesystem; the page shows the file, and a reload restores it
// from localStorage (MemoryFileSystem.toJSON / fromJSON).
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, shots, startDemoServer } from "./browser.mjs"

describe("the files page: built-in file tools on the in-memory filesystem", () => {
  let server, browser, page

  before(async () => {
    server = await startDemoServer()
    browser = await openBrowser()
    page = browser.page
    await page.goto(new URL("files.html", server.url).href)
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  after(async () => {
    await browser?.close()
    server?.child.kill()
  })

  it("one agent turn writes, reads and edits the file, and the page shows it", async () => {
    await page.fill("#path", "/notes/plan.md")
    await page.fill("#task", "ship the file tools")
    await page.click("#ask")
    await page.locator('#answer[data-state="done"]').waitFor()
    const calls = await page.$$eval("#calls li", (items) => items.map((li) => [li.dataset.tool, li.dataset.error, li.textContent]))
    assert.deepEqual(calls, [
      ["write", "false", "write: Wrote 54 bytes to /notes/plan.md"],
      ["read", "false", "read: # Plan"],
      ["edit", "false", "edit: Edited /notes/plan.md (1 replacement)"],
    ])
    assert.equal(await page.textContent("#answer"),
      'Done: /notes/plan.md now marks "ship the file tools" as finished (Edited /notes/plan.md (1 replacement)).')
    assert.equal(await page.textContent("#file-count"), "(1)")
    const shown = await page.textContent('#files article[data-path="/notes/plan.md"] pre')
    assert.equal(shown, "# Plan\n\n- [x] ship the file tools\n- [ ] tell the team\n")
    await page.screenshot({ path: join(shots, "files-after-turn.png") })
  })

  it("a second turn on another file adds to the same filesystem", async () => {
    await page.fill("#path", "/todo.md")
    await page.fill("#task", "write docs")
    await page.click("#ask")
    await page.locator('#answer[data-state="done"]').waitFor()
    await page.locator("#file-count", { hasText: "(2)" }).waitFor()
    const paths = await page.$$eval("#files article", (items) => items.map((a) => a.dataset.path))
    assert.deepEqual(paths, ["/notes/plan.md", "/todo.md"])
  })

  it("a reload restores the files from localStorage", async () => {
    await page.reload()
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
    assert.equal(await page.textContent("#file-count"), "(2)")
    const shown = await page.textContent('#files article[data-path="/todo.md"] pre')
    assert.equal(shown, "# Plan\n\n- [x] write docs\n- [ ] tell the team\n")
    await page.click("#reset")
    await page.locator("#file-count", { hasText: "(0)" }).waitFor()
    await page.screenshot({ path: join(shots, "files-cleared.png") })
  })

  it("logged no console errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
