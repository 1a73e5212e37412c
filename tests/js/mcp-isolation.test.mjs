// Isolation: a server that hangs, answers 500, answers garbage or cannot be reached is
// "failed" with its reason, within its timeout, while the others load and work; a hanging call
// ends at its budget; and nothing is left holding the process open.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:net"
import { createToolkit } from "../../pkg/node.mjs"
import { startMcpServer } from "./support/mcp-server.mjs"

let server
let realWarn
before(async () => {
  server = await startMcpServer()
  realWarn = console.warn
  console.warn = () => {}
})
after(async () => {
  console.warn = realWarn
  await server.close()
})

/** A port nothing listens on. */
async function closedPort() {
  const probe = createServer()
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}

test("broken servers are failed with their reasons; the good one loads and works", async () => {
  const port = await closedPort()
  const started = Date.now()
  const toolkit = await createToolkit({
    builtins: false,
    mcpConfig: {
      mcpServers: {
        good: { url: server.url("/mcp"), tools: { echo: true } },
        hang: { url: server.url("/hang"), timeout: 300 },
        status: { url: server.url("/error500") },
        garbage: { url: server.url("/garbage") },
        html: { url: server.url("/html") },
        refused: { url: `http://127.0.0.1:${port}/mcp` },
        notfound: { url: server.url("/nowhere") },
        off: { url: server.url("/hang"), disabled: true },
      },
    },
  })
  const elapsed = Date.now() - started
  assert.ok(elapsed < 3000, `loaded in ${elapsed} ms`)
  assert.ok(elapsed >= 290, `the hanging server was given its 300 ms (${elapsed} ms)`)
  assert.deepEqual(toolkit.mcpStatus(), {
    good: "connected", hang: "failed", status: "failed", garbage: "failed", html: "failed", refused: "failed", notfound: "failed", off: "disabled",
  })
  const errors = toolkit.mcpErrors()
  // The first request over HTTP is the 2026-07-28 probe (server/discover).
  assert.equal(errors.hang, "timed out after 300 ms during server/discover")
  assert.equal(errors.status, "HTTP 500: boom")
  assert.equal(errors.garbage, "the response is not JSON: this is not json")
  assert.equal(errors.html, 'unexpected content type "text/html": <html>hello</html>')
  assert.match(errors.refused, /fetch failed \(ECONNREFUSED\)/)
  assert.equal(errors.notfound, "HTTP 404")
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["good_echo"])
  assert.equal((await toolkit.execute("good_echo", { text: "still fine" })).output, "echo: still fine")
  await toolkit.close()
})

test("a timed-out request's connection is closed (the server sees it go)", async () => {
  const toolkit = await createToolkit({ mcpConfig: { mcpServers: { hang: { url: server.url("/hang"), timeout: 100 } } } })
  assert.deepEqual(toolkit.mcpStatus(), { hang: "failed" })
  for (let i = 0; i < 50 && server.openHangs() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(server.openHangs(), 0)
  await toolkit.close()
})

test("a hanging call ends at the server's timeout or the call's own, and others keep working", async () => {
  const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url: server.url("/mcp"), timeout: 400 } } } })
  let started = Date.now()
  const [slow, quick] = await Promise.all([toolkit.execute("s_slow", { ms: 5000 }), toolkit.execute("s_echo", { text: "x" })])
  assert.equal(quick.output, "echo: x")
  assert.deepEqual(slow, { output: "timed out after 400 ms during tools/call", isError: true, metadata: { server: "s" } })
  assert.ok(Date.now() - started < 2000)
  started = Date.now()
  const own = await toolkit.execute("s_slow", { ms: 5000 }, { timeout: 100 })
  assert.equal(own.isError, true)
  assert.ok(Date.now() - started < 1000)
  const fine = await toolkit.execute("s_slow", { ms: 10 })
  assert.equal(fine.output, "done")
  await toolkit.close()
})

test("an aborted call stops at once", async () => {
  const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url: server.url("/mcp") } } } })
  const controller = new AbortController()
  const call = toolkit.execute("s_slow", { ms: 5000 }, { signal: controller.signal })
  setTimeout(() => controller.abort(new Error("user left")), 50)
  const result = await call
  assert.equal(result.isError, true)
  assert.match(result.output, /aborted/)
  await toolkit.close()
})
