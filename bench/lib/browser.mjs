// The browser variant of scenario 1: a static server on 127.0.0.1 for pkg/ and bench/, and
// Debian's Chromium driven by playwright-core. Each measurement gets a fresh browser context
// (its own page and renderer); contenders are interleaved A B C C B A across repeats.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { spawnSync } from "node:child_process"
import http from "node:http"
import path from "node:path"
import { combine, median, summarize } from "./stats.mjs"

const CHROMIUM = "/usr/bin/chromium"
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" }

function serve(root, pkgDir) {
  const allowed = [pkgDir, path.join(root, "bench")]
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1")
    const pathname = decodeURIComponent(url.pathname)
    // /pkg/… is the package measured (pkg/ or a variant), /bench/… this folder
    const file = pathname.startsWith("/pkg/") ? path.normalize(path.join(pkgDir, pathname.slice(5))) : path.normalize(path.join(root, pathname))
    const ok = allowed.some((dir) => file.startsWith(dir + path.sep)) && existsSync(file) && statSync(file).isFile()
    if (!ok) {
      res.writeHead(404)
      res.end()
      return
    }
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      // cross-origin isolation gives the page a finer performance.now()
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cache-control": "no-store",
    })
    res.end(readFileSync(file))
  })
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)))
}

function chromiumVersion() {
  const out = spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" }).stdout ?? ""
  return /Chromium [\d.]+/.exec(out)?.[0] ?? "unknown"
}

export async function runBrowser({ root, pkgDir, repeats, batches, batch, warmup, smoke }) {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is not installed` }
  let chromium
  try {
    ;({ chromium } = await import("playwright-core"))
  } catch (error) {
    return { skipped: `playwright-core is not installed in bench/ (${error.message})` }
  }
  const userDataDir = path.join(root, "target", `bench-chromium-${process.pid}`)
  rmSync(userDataDir, { recursive: true, force: true })
  mkdirSync(userDataDir, { recursive: true })
  const server = await serve(root, pkgDir)
  const base = `http://127.0.0.1:${server.address().port}`
  const context0 = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: FLAGS })
  const names = ["bare", "toolnexus", "vercel"]
  const per = Object.fromEntries(names.map((c) => [c, []]))
  const mismatches = []
  const notes = []
  let isolated = null
  const fresh = async () => {
    // A persistent context (for the fresh user-data-dir) has no browser handle to make new
    // contexts from: each measurement gets a new page, closed after it.
    const page = await context0.newPage()
    const errors = []
    page.on("pageerror", (e) => errors.push(String(e)))
    await page.goto(`${base}/bench/browser/page.html`)
    await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 })
    return { page, errors }
  }
  try {
    for (let r = 0; r < repeats; r++) {
      for (const c of r % 2 === 0 ? names : [...names].reverse()) {
        const { page, errors } = await fresh()
        try {
          const res = await page.evaluate((args) => window.bench(args), { contender: c, warmup, batches, batch })
          isolated = res.crossOriginIsolated
          per[c].push(summarize(res.perRun))
        } catch (error) {
          // a wrong final text, or a contender that did not run in the page: both fail the bench
          const message = String(error?.message ?? error).split("\n")[0]
          mismatches.push(`${c}: ${message}${errors.length ? ` (${errors[0]})` : ""}`)
        } finally {
          await page.close()
        }
      }
    }
    const wasm = []
    for (let i = 0; i < (smoke ? 1 : 5); i++) {
      const { page } = await fresh()
      wasm.push(await page.evaluate(() => window.coldWasm()))
      await page.close()
    }
    notes.push(`page clock: crossOriginIsolated = ${isolated} (performance.now() is coarser without it)`)
    const contenders = {}
    for (const c of names) if (per[c].length) contenders[c] = combine(per[c])
    return {
      chromium: chromiumVersion(),
      batch,
      batches,
      contenders,
      mismatches,
      notes,
      wasm: wasm.length ? { samples: wasm.length, compileUs: median(wasm.map((w) => w.compileUs)), instantiateUs: median(wasm.map((w) => w.instantiateUs)) } : null,
    }
  } finally {
    await context0.close()
    server.close()
    rmSync(userDataDir, { recursive: true, force: true })
  }
}
