#!/usr/bin/env node
// The MCP client beside the official SDK clients: how long this package's toolkit takes to
// connect to a remote MCP server and call its tools over streamable HTTP on 127.0.0.1, against
//   toolnexus   createToolkit({builtins: false, mcpConfig: {mcpServers: {s: {url}}}}) of this
//               package (pkg/, full build), then toolkit.tools() and toolkit.execute("s_<tool>")
//   sdk2-auto   the official SDK 2.x client, @modelcontextprotocol/client: new Client +
//               StreamableHTTPClientTransport, connect(), listTools(), callTool(), with
//               `versionNegotiation: {mode: "auto"}` (it probes, and speaks 2026-07-28 to the v2
//               server and falls back to 2025-11-25 on v1)
//   sdk2        the same client as it comes (its default mode, "legacy": 2025-11-25 everywhere)
//   sdk1        the official SDK 1.x client, @modelcontextprotocol/sdk: the same calls
//   reference   the reference JS port's toolkit (createToolkit with the same mcpConfig, execute):
//               its MCP client is the SDK 1.x Client it locks (reported on the version line)
// Two real servers, each in a process of its own, started by this script on 127.0.0.1:
//   v2   the official SDK 2.x server (@modelcontextprotocol/server createMcpHandler), stateless
//        (a fresh McpServer per request): this package speaks 2026-07-28 to it
//   v1   the official SDK 1.x server (McpServer + StreamableHTTPServerTransport with sessions, one
//        transport per session): this package speaks 2025-11-25 sessions to it
// Each serves `echo` ({text} → "echo: <text>") and `big` (a 100,000-character text).
// Scenarios, one process per (peer, server) doing all four in this order, interleaved across
// repeats (A B C D E, E D C B A, …), after two untimed processes have warmed the server:
//   connect   a new client each time: connect + list the tools (timed), then close (not timed)
//   call      one connected client, echo called sequentially (each call timed alone)
//   conc16    one connected client, 16 echo calls at once (each batch of 16 timed)
//   big       one connected client, a call whose result is 100,000 characters of text
// Every answer is checked (the tool list, the echoed text, the big text's length and ends): one
// wrong answer fails the script. Timings never fail it. Not part of `npm test`.
//
//   cd bench && npm install && node mcp-client.mjs [--smoke] [--quick] [--repeats=N] [--only=v2,v1]
import { createServer } from "node:http"
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { importReference, referenceDependencyVersion } from "./tools/reference-port.mjs"
import { inChild, machineLine, median, orderFor, parseFlags, root, versions } from "./lib/peer-runs.mjs"
import { pkgUrl } from "./contenders/pkg.mjs"
import { startServerChild } from "./lib/server-child.mjs"

const flags = parseFlags(process.argv.slice(2))
const PEERS = ["toolnexus", "sdk2-auto", "sdk2", "sdk1", "reference"]
const SERVERS = ["v2", "v1"]
const BIG_CHARS = 100_000
const CONCURRENT = 16
/** 1,000 lines of 99 characters and a newline: 100,000 characters. */
const BIG_TEXT = Array.from({ length: BIG_CHARS / 100 }, (_, i) => `${String(i).padStart(4, "0")} ${"lorem ipsum dolor sit amet ".repeat(4).slice(0, 94)}`).join("\n") + "\n"
if (BIG_TEXT.length !== BIG_CHARS) throw new Error(`big text is ${BIG_TEXT.length} characters`)

// ---------------------------------------------------------------------------------------------
// The servers (each in its own process)

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString("utf8")
}

/** The SDK 2.x server, stateless: createMcpHandler with a fresh McpServer per request. */
async function serveV2() {
  const { McpServer, createMcpHandler } = await import("@modelcontextprotocol/server")
  const { z } = await import("zod")
  const text = (t) => ({ content: [{ type: "text", text: t }] })
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: "bench-v2", version: "2.0.0" })
    mcp.registerTool("echo", { description: "Echoes text", inputSchema: z.object({ text: z.string() }) }, async ({ text: t }) => text(`echo: ${t}`))
    mcp.registerTool("big", { description: "A 100,000-character text" }, async () => text(BIG_TEXT))
    return mcp
  })
  return createServer(async (req, res) => {
    try {
      const body = await readBody(req)
      const headers = new Headers()
      for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(", ") : v)
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: body.length ? body : undefined })
      let parsedBody
      try {
        parsedBody = body ? JSON.parse(body) : undefined
      } catch {
        parsedBody = undefined
      }
      const response = await handler.fetch(request, parsedBody === undefined ? undefined : { parsedBody })
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (!response.body) return res.end()
      res.on("close", () => void response.body.cancel().catch(() => {}))
      for await (const chunk of response.body) res.write(chunk)
      res.end()
    } catch (error) {
      if (!res.headersSent) res.writeHead(500)
      res.end(String(error))
    }
  })
}

/** The SDK 1.x server with sessions: one McpServer and StreamableHTTPServerTransport a session. */
async function serveV1() {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js")
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js")
  const { z } = await import("zod")
  const text = (t) => ({ content: [{ type: "text", text: t }] })
  const sessions = new Map()
  return createServer(async (req, res) => {
    const raw = req.method === "POST" ? await readBody(req) : ""
    const body = raw ? JSON.parse(raw) : undefined
    const id = req.headers["mcp-session-id"]
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      if (id) return res.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}')
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => sessions.set(sid, transport) })
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId)
      const mcp = new McpServer({ name: "bench-v1", version: "1.0.0" })
      mcp.registerTool("echo", { description: "Echoes text", inputSchema: { text: z.string() } }, async ({ text: t }) => text(`echo: ${t}`))
      mcp.registerTool("big", { description: "A 100,000-character text" }, async () => text(BIG_TEXT))
      await mcp.connect(transport)
    }
    await transport.handleRequest(req, res, body)
  })
}

// ---------------------------------------------------------------------------------------------
// The clients: {connect() → {tools: names, call(name, args) → text, close()}}

async function peerOf(peer) {
  if (peer === "toolnexus" || peer === "reference") {
    const lib = peer === "toolnexus" ? await import(pkgUrl("node.mjs")) : (await importReference()).lib
    return async (url) => {
      const toolkit = await lib.createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url, timeout: 30_000 } } } })
      const status = toolkit.mcpStatus().s
      if (status !== "connected") throw new Error(`${peer}: server s is ${status}`)
      return {
        tools: toolkit.tools().map((t) => t.name.replace(/^s_/, "")),
        call: async (name, args) => {
          const r = await toolkit.execute(`s_${name}`, args)
          if (r.isError) throw new Error(`${peer}: ${name} answered an error: ${String(r.output).slice(0, 200)}`)
          return r.output
        },
        close: () => toolkit.close(),
      }
    }
  }
  const { Client, StreamableHTTPClientTransport } =
    peer.startsWith("sdk2")
      ? await import("@modelcontextprotocol/client")
      : { ...(await import("@modelcontextprotocol/sdk/client/index.js")), ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")) }
  return async (url) => {
    const options = peer === "sdk2-auto" ? { versionNegotiation: { mode: "auto" } } : undefined
    const client = new Client({ name: `bench-${peer}`, version: "1.0.0" }, options)
    const transport = new StreamableHTTPClientTransport(new URL(url))
    await client.connect(transport)
    const { tools } = await client.listTools()
    return {
      tools: tools.map((t) => t.name),
      call: async (name, args) => {
        const r = await client.callTool({ name, arguments: args })
        if (r.isError) throw new Error(`${peer}: ${name} answered an error: ${JSON.stringify(r.content).slice(0, 200)}`)
        return r.content.map((c) => c.text).join("")
      },
      close: async () => {
        // The 1.x session: end it (DELETE) as the toolkits do on close.
        if (transport.sessionId && typeof transport.terminateSession === "function") await transport.terminateSession().catch(() => {})
        await client.close()
      },
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One process: every scenario for one peer against one server

function quantiles(samples) {
  const s = Float64Array.from(samples).sort()
  const at = (q) => {
    const i = (s.length - 1) * q
    return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i))
  }
  return { p50: at(0.5), p90: at(0.9), n: s.length }
}

async function timed(fn, { warmup, iters, between }) {
  for (let i = 0; i < warmup; i++) {
    await fn()
    if (between) await between()
  }
  globalThis.gc?.()
  const samples = []
  for (let i = 0; i < iters; i++) {
    const t = performance.now()
    await fn()
    samples.push((performance.now() - t) * 1000)
    if (between) await between()
  }
  return quantiles(samples)
}

const checkTools = (peer, tools) => {
  if (!tools.includes("echo") || !tools.includes("big")) throw new Error(`${peer} listed ${JSON.stringify(tools)}`)
}
const checkEcho = (peer, got, want) => {
  if (got !== `echo: ${want}`) throw new Error(`${peer} echo answered ${JSON.stringify(String(got).slice(0, 200))}, not "echo: ${want}"`)
}
const checkBig = (peer, got) => {
  if (typeof got !== "string" || got.length !== BIG_CHARS || got.slice(0, 5) !== "0000 " || !got.endsWith(BIG_TEXT.slice(-120))) {
    throw new Error(`${peer} big answered ${typeof got} of ${got?.length} characters`)
  }
}

/** The protocol versions the peer sent (its requests' MCP-Protocol-Version), seen once, untimed. */
async function probeVersions(connect, url) {
  const original = globalThis.fetch
  const seen = new Set()
  globalThis.fetch = (input, init) => {
    const h = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
    seen.add(h.get("mcp-protocol-version") ?? "(none)")
    return original(input, init)
  }
  try {
    const c = await connect(url)
    await c.call("echo", { text: "probe" })
    await c.close()
  } finally {
    globalThis.fetch = original
  }
  return [...seen].filter((v) => v !== "(none)")
}

async function clientChild({ peer, url, counts }) {
  const connect = await peerOf(peer)
  const protocol = await probeVersions(connect, url)
  const out = { protocol }
  let open = null
  out.connect = await timed(
    async () => {
      open = await connect(url)
      checkTools(peer, open.tools)
    },
    { ...counts.connect, between: () => open.close() },
  )
  const c = await connect(url)
  let k = 0
  out.call = await timed(async () => {
    const text = `t${k++}`
    checkEcho(peer, await c.call("echo", { text }), text)
  }, counts.call)
  out.conc16 = await timed(async () => {
    const texts = Array.from({ length: CONCURRENT }, (_, i) => `c${k}_${i}`)
    k++
    const got = await Promise.all(texts.map((text) => c.call("echo", { text })))
    got.forEach((g, i) => checkEcho(peer, g, texts[i]))
  }, counts.conc16)
  out.big = await timed(async () => checkBig(peer, await c.call("big", {})), counts.big)
  await c.close()
  return out
}

if (flags.child) {
  const task = flags.child
  if (task.role === "server") {
    const server = await (task.server === "v2" ? serveV2() : serveV1())
    server.keepAliveTimeout = 60_000
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
    console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/mcp` }))
    process.on("SIGTERM", () => process.exit(0))
  } else {
    console.log(JSON.stringify(await clientChild(task)))
    process.exit(0)
  }
} else {
  await main()
}

// ---------------------------------------------------------------------------------------------
// The runner

function startServer(script, server) {
  return startServerChild(script, { server }, server)
}

function dependencyVersion(name, from) {
  const file = path.join(from, "node_modules", ...name.split("/"), "package.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : "?"
}

function us(x) {
  return x >= 10_000 ? `${(x / 1000).toFixed(1)} ms` : x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(0)} µs`
}

async function main() {
  const script = fileURLToPath(import.meta.url)
  const started = performance.now()
  const v = versions()
  const servers = SERVERS.filter((s) => !flags.only || flags.only.includes(s))
  const counts = flags.smoke
    ? { connect: { warmup: 2, iters: 5 }, call: { warmup: 5, iters: 20 }, conc16: { warmup: 2, iters: 5 }, big: { warmup: 2, iters: 5 } }
    : flags.quick
      ? { connect: { warmup: 5, iters: 30 }, call: { warmup: 50, iters: 200 }, conc16: { warmup: 5, iters: 30 }, big: { warmup: 5, iters: 30 } }
      : { connect: { warmup: 10, iters: 60 }, call: { warmup: 100, iters: 500 }, conc16: { warmup: 10, iters: 60 }, big: { warmup: 10, iters: 60 } }
  const warmCounts = flags.smoke ? counts : { connect: { warmup: 0, iters: 30 }, call: { warmup: 0, iters: 300 }, conc16: { warmup: 0, iters: 20 }, big: { warmup: 0, iters: 30 } }
  const results = {}
  for (const server of servers) {
    const srv = await startServer(script, server)
    try {
      // A fresh server is slower for whoever comes first (its JIT is cold): two untimed processes
      // (the SDK clients, both protocol eras) warm it before the measured ones.
      for (const peer of ["sdk2-auto", "sdk1"]) inChild(script, { role: "client", peer, url: srv.url, counts: warmCounts })
      const by = Object.fromEntries(PEERS.map((p) => [p, []]))
      for (let round = 0; round < flags.repeats; round++) {
        for (const peer of orderFor(PEERS, round)) by[peer].push(inChild(script, { role: "client", peer, url: srv.url, counts }))
      }
      results[server] = by
    } finally {
      srv.stop()
    }
  }

  const sdk2 = dependencyVersion("@modelcontextprotocol/client", root)
  const sdk1 = dependencyVersion("@modelcontextprotocol/sdk", root)
  const server2 = dependencyVersion("@modelcontextprotocol/server", root)
  console.log(`MCP client over streamable HTTP on 127.0.0.1: median over ${flags.repeats} fresh process(es) per peer of each process's p50 and p90`)
  console.log(`  ${machineLine()}`)
  console.log(`  toolnexus-wasm ${v.toolnexusWasm}`)
  console.log(`  sdk2 @modelcontextprotocol/client ${sdk2}; sdk1 @modelcontextprotocol/sdk ${sdk1}; reference ${v.reference} (its client: @modelcontextprotocol/sdk ${referenceDependencyVersion("@modelcontextprotocol/sdk") ?? "?"})`)
  console.log(`  servers: v2 @modelcontextprotocol/server ${server2} createMcpHandler, stateless; v1 @modelcontextprotocol/sdk ${sdk1} McpServer, sessions`)
  const c = counts
  const scen = {
    connect: `connect + list tools, a new client each time (${c.connect.iters} timed; close not timed)`,
    call: `one tools/call (echo), sequential (${c.call.iters} timed)`,
    conc16: `${CONCURRENT} concurrent tools/call (echo), per batch (${c.conc16.iters} timed)`,
    big: `one tools/call whose result is ${BIG_CHARS.toLocaleString("en")} characters of text (${c.big.iters} timed)`,
  }
  for (const server of servers) {
    const by = results[server]
    console.log(`\n  server ${server === "v2" ? "v2 (SDK 2.x, stateless)" : "v1 (SDK 1.x, sessions)"}; protocol sent: ${PEERS.map((p) => `${p} ${[...new Set(by[p].flatMap((r) => r.protocol))].join("+") || "?"}`).join(", ")}`)
    for (const [key, label] of Object.entries(scen)) {
      console.log(`    ${label}`)
      console.log(`      ${"peer".padEnd(10)} ${"p50".padStart(9)} ${"p90".padStart(9)}   toolnexus/peer p50  p90   p50s of the repeats`)
      const med = Object.fromEntries(PEERS.map((p) => [p, { p50: median(by[p].map((r) => r[key].p50)), p90: median(by[p].map((r) => r[key].p90)) }]))
      for (const p of PEERS) {
        const ratios = p === "toolnexus" ? "       —     —" : `   ${(med.toolnexus.p50 / med[p].p50).toFixed(2).padStart(5)}x ${(med.toolnexus.p90 / med[p].p90).toFixed(2).padStart(5)}x`
        console.log(`      ${p.padEnd(10)} ${us(med[p].p50).padStart(9)} ${us(med[p].p90).padStart(9)}   ${ratios}        ${by[p].map((r) => us(r[key].p50)).join(", ")}`)
      }
    }
  }
  console.log(`\n  toolnexus/peer > 1 means this package took longer. ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${machineLine().split("load average ")[1]}`)
}
