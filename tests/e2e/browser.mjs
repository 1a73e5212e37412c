// Headless Debian Chromium through playwright-core, with the flags ARCHITECTURE.md lists and a
// fresh profile under target/. Collects console errors and page errors for the assertions.
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { after, before } from "node:test"
import { chromium } from "playwright-core"

export const repo = fileURLToPath(new URL("../..", import.meta.url))
export const shots = join(repo, "target", "e2e")

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** Launches Chromium; resolves to {page, problems, close()}. `problems` lists console errors. */
export async function openBrowser() {
  mkdirSync(join(repo, "target", "chromium"), { recursive: true })
  mkdirSync(shots, { recursive: true })
  const profile = mkdtempSync(join(repo, "target", "chromium", "profile-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 900 },
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const problems = []
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`))
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
  page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`))
  const close = async () => {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
  return { page, problems, close }
}

/** Starts `node scripts/serve.mjs --port 0` and reads the URL it prints. */
export function startDemoServer() {
  const child = spawn(process.execPath, [join(repo, "scripts", "serve.mjs"), "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  })
  return new Promise((resolve, reject) => {
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const found = out.match(/^toolnexus-wasm demo: (http:\/\/127\.0\.0\.1:\d+\/)$/m)
      if (found) resolve({ child, url: found[1] })
    })
    child.once("exit", (code) => reject(new Error(`serve.mjs exited (${code}) before printing its URL: ${out}`)))
  })
}


/**
 * In a `describe`: before its tests, starts the demo server and opens a browser on one of its
 * pages (`login.html?state=<state>`, or `path` itself when it names a page); after them,
 * closes both. The handle's `page` and `problems` are the browser's once `before` ran.
 */
export function onDemoPage(state, path = `login.html?state=${state}`) {
  const handle = { server: undefined, browser: undefined }
  before(async () => {
    handle.server = await startDemoServer()
    handle.browser = await openBrowser()
    await handle.browser.page.goto(new URL(path, handle.server.url).href)
  })
  after(async () => {
    await handle.browser?.close()
    handle.server?.child.kill()
  })
  return {
    get page() {
      return handle.browser.page
    },
    get problems() {
      return handle.browser.problems
    },
  }
}

/**
 * Runs `body(module, arg)` in `page` with the package (`/pkg/index.js`) imported; resolves to
 * its result. `body` is sent as its source, so it may use only `module`, `arg` and the page's
 * globals.
 */
export const inPage = (page, body, arg) =>
  page.evaluate(
    async ([source, arg]) => {
      const module = await import("/pkg/index.js")
      return new Function("m", "arg", `return (${source})(m, arg)`)(module, arg)
    },
    [body.toString(), arg],
  )
