// The Vite production build of this app, served from dist/ on 127.0.0.1, in headless Chromium.
import assert from "node:assert/strict"
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { after, before, it } from "node:test"
import { fileURLToPath } from "node:url"
import { openBrowser, shots } from "../e2e/browser.mjs"
import { startServer } from "../../scripts/serve.mjs"

const dist = fileURLToPath(new URL("./dist", import.meta.url))
let server, browser, full
const wasm = []

before(async () => {
  server = await startServer({ routes: { "/": dist }, port: 0 })
  browser = await openBrowser()
  // Each .wasm response: its type, and the size of the asset it served.
  browser.page.on("response", (r) => {
    if (r.url().endsWith(".wasm")) wasm.push({ type: r.headers()["content-type"], bytes: statSync(join(dist, new URL(r.url()).pathname)).size })
  })
})

after(async () => {
  await browser?.close()
  await server?.close()
})

it("the build emitted one .wasm asset per build (full and core)", () => {
  const assets = readdirSync(join(dist, "assets"))
  assert.equal(assets.filter((f) => f.endsWith(".wasm")).length, 2, assets.join(", "))
})

/** Loads the page at `path` and returns what it shows, once it settles or throws. */
async function show(path) {
  const { page, problems } = browser
  wasm.length = 0
  const threw = page.waitForEvent("pageerror", { timeout: 15_000 })
  await page.goto(server.url + path)
  const settled = page.locator('#result:not([data-state="loading"])').waitFor({ timeout: 15_000 })
  await Promise.race([settled, threw]).catch(() => {})
  await page.screenshot({ path: join(shots, `vite-app${path ? "-core" : ""}.png`) })
  return { text: await page.textContent("#result"), state: await page.getAttribute("#result", "data-state"), problems }
}

it("the page runs a tool through a toolkit and shows the result", async () => {
  const { text, state, problems } = await show("")
  assert.equal(text, "greet: Hello, Vite! (isError: false)", problems.join("\n"))
  assert.equal(state, "done")
  assert.deepEqual(wasm.map((w) => w.type), ["application/wasm"])
  assert.deepEqual(problems, [])
  full = wasm[0]
})

it("with ?core the page fetches only the lean build's module and runs the agent loop on it", async () => {
  const { text, state, problems } = await show("?core")
  assert.equal(text, "greet: Hello, Vite! (isError: false); core run: model saw: Hello, loop!", problems.join("\n"))
  assert.equal(state, "done")
  assert.equal(wasm.length, 1)
  assert.equal(wasm[0].type, "application/wasm")
  assert.ok(wasm[0].bytes < full.bytes * 0.75, `core ${wasm[0].bytes} bytes, full ${full.bytes}`)
  assert.deepEqual(problems, [])
})
