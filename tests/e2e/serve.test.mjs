// scripts/serve.mjs: routes, MIME types, refusals, and the port it picks.
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { repo } from "./browser.mjs"
import { startServer } from "../../scripts/serve.mjs"

describe("scripts/serve.mjs", () => {
  let server
  before(async () => {
    server = await startServer({ routes: { "/pkg/": join(repo, "pkg"), "/": join(repo, "www") }, port: 0 })
  })
  after(() => server.close())

  const get = (path, init) => fetch(new URL(path, server.url), init)

  it("serves www/ and pkg/ with their MIME types", async () => {
    // sirv's types: a charset on HTML only (module scripts and JSON are UTF-8 whatever the header says,
    // and CSS falls back to its page's UTF-8).
    const cases = [
      ["/", "text/html;charset=utf-8"],
      ["/app.js", "text/javascript"],
      ["/style.css", "text/css"],
      ["/pkg/index.js", "text/javascript"],
      ["/pkg/package.json", "application/json"],
      ["/pkg/web/toolnexus_bg.wasm", "application/wasm"],
    ]
    for (const [path, type] of cases) {
      const res = await get(path)
      assert.equal(res.status, 200, path)
      assert.equal(res.headers.get("content-type"), type, path)
      await res.arrayBuffer()
    }
    const wasm = new Uint8Array(await (await get("/pkg/web/toolnexus_bg.wasm")).arrayBuffer())
    assert.deepEqual([...wasm.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d])
  })

  it("refuses what it should not serve", async () => {
    assert.equal((await get("/nope.html")).status, 404)
    assert.equal((await get("/%2e%2e/Cargo.toml")).status, 404)
    assert.equal((await get("/pkg/..%2f..%2fCargo.toml")).status, 404)
    assert.equal((await get("/", { method: "POST" })).status, 405)
    const head = await get("/pkg/web/toolnexus_bg.wasm", { method: "HEAD" })
    assert.equal(head.status, 200)
    assert.ok(Number(head.headers.get("content-length")) > 1000)
  })

  it("takes its port from $PORT and prints its URL", async () => {
    const port = await startServer({ routes: {}, port: 0 }).then(async (s) => (await s.close(), s.port))
    const child = spawn(process.execPath, [join(repo, "scripts", "serve.mjs")], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"],
    })
    try {
      const line = await new Promise((resolve, reject) => {
        child.stdout.once("data", (chunk) => resolve(String(chunk).trim()))
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)))
      })
      assert.equal(line, `toolnexus-wasm demo: http://127.0.0.1:${port}/`)
    } finally {
      child.kill()
    }
  })
})
