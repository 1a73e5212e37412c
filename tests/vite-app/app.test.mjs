// The Vite production build of this app, served from dist/ on 127.0.0.1, in headless Chromium.
import assert from "node:assert/strict"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { after, before, it } from "node:test"
import { fileURLToPath } from "node:url"
import { openBrowser, shots } from "../e2e/browser.mjs"
import { startServer } from "../../scripts/serve.mjs"

const dist = fileURLToPath(new URL("./dist", import.meta.url))
let server, browser
const wasm = []

before(async () => {
  server = await startServer({ routes: { "/": dist }, port: 0 })
  browser = await openBrowser()
  browser.page.on("response", (r) => r.url().endsWith(".wasm") && wasm.push(r.headers()["content-type"]))
})

after(async () => {
  await browser?.close()
  await server?.close()
})

it("the build emitted the .wasm file as an asset", () => {
  const assets = readdirSync(join(dist, "assets"))
  assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 1, assets.join(", "))
})

it("the page runs a tool through a toolkit and shows the result", async () => {
  const { page, problems } = browser
  // Waits for the page to settle or to throw; the assertions below then say which it was.
  const threw = page.waitForEvent("pageerror", { timeout: 15_000 })
  await page.goto(server.url)
  const settled = page.locator('#result:not([data-state="loading"])').waitFor({ timeout: 15_000 })
  await Promise.race([settled, threw]).catch(() => {})
  await page.screenshot({ path: join(shots, "vite-app.png") })
  assert.equal(await page.textContent("#result"), "greet: Hello, Vite! (isError: false)", problems.join("\n"))
  assert.equal(await page.getAttribute("#result", "data-state"), "done")
  assert.deepEqual(wasm, ["application/wasm"])
  assert.deepEqual(problems, [])
})
