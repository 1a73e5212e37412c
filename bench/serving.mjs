#!/usr/bin/env node
// Serving (issue 29): requests per second for an A2A `GetTask` and an MCP `tools/call` of a
// trivial tool (`echo`), for
//   toolnexus   toolkit.handler({client, a2a: {}, mcp: {}}) of this package (pkg/, full build),
//               called with a `Request` in process, and toolkit.serve("127.0.0.1:0", …) over HTTP
//   reference   the reference JS port's toolkit.serve("127.0.0.1:0", {client, a2a: {}, mcp: {}})
//               (HTTP only: it has no in-process handler)
//   mcp-sdk     the official MCP SDK's stateless streamable HTTP server (MCP only): per request a
//               new McpServer and transport, as the SDK's stateless example does;
//               WebStandardStreamableHTTPServerTransport with a `Request` in process,
//               StreamableHTTPServerTransport on node:http over HTTP; its default answers a
//               POST with a one-event stream
//   mcp-sdk-json the same with the SDK's `enableJsonResponse: true` (a JSON body, as this
//               package answers when `Accept` ranks both equally)
// In process the handler is called directly (no socket). Over 127.0.0.1 the server runs in its
// own process and the load comes from another over node:http keep-alive connections. Both keep
// CONCURRENCY requests in flight. Every response is checked (status 200 and the task's artifact
// or the tool's output in the body); one wrong answer fails the bench.
//
//   node bench/serving.mjs [--smoke] [--quick] [--repeats=N] [--only=inproc,http]
import http from "node:http"
import { fileURLToPath } from "node:url"
import { importReference } from "./tools/reference-port.mjs"
import { inChild, machineLine, median, orderFor, parseFlags, ratio, versions } from "./lib/peer-runs.mjs"
import { pkgUrl } from "./contenders/pkg.mjs"
import { startServerChild } from "./lib/server-child.mjs"

const flags = parseFlags(process.argv.slice(2))
const want = (part) => !flags.only || flags.only.includes(part)
const CONCURRENCY = 8
const MODEL = "gpt-4o-mini"
const TASK_TEXT = "bench task"
const ANSWER = "the answer to the bench task"
const MCP_BODY = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "ping" } } })
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const A2A_HEADERS = { "content-type": "application/json" }
const getTaskBody = (id) => JSON.stringify({ jsonrpc: "2.0", id: 9, method: "GetTask", params: { id } })

// ---------------------------------------------------------------------------------------------
// The servers

/** A model that answers at once (the A2A task's run): an in-process OpenAI-style fetch. */
async function modelFetch() {
  const body = JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content: ANSWER }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } })
}

/** toolnexus or reference: a toolkit with the `echo` tool and a client, from either library. */
async function toolkitOf(contender) {
  const lib = contender === "toolnexus" ? await import(pkgUrl("node.mjs")) : (await importReference()).lib
  const echo = lib.defineTool({
    name: "echo",
    description: "Echoes its text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => `echo:${text}`,
  })
  const toolkit = await lib.createToolkit({ builtins: false, extraTools: [echo] })
  const client = lib.createClient({ baseUrl: "http://model.local/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: modelFetch })
  return { toolkit, options: { client, a2a: { name: "bench" }, mcp: { name: "bench" } } }
}

/** The official MCP SDK's server of the same tool, made per request (stateless). */
async function sdkServer() {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js")
  const { z } = await import("zod")
  return () => {
    const server = new McpServer({ name: "bench", version: "0.1.0" })
    server.registerTool("echo", { description: "Echoes its text", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text: `echo:${text}` }] }))
    return server
  }
}

/** An in-process handler `(Request) => Promise<Response>` of a contender. */
async function inProcessHandler(contender) {
  if (contender === "toolnexus") {
    const { toolkit, options } = await toolkitOf(contender)
    return toolkit.handler(options)
  }
  if (contender.startsWith("mcp-sdk")) {
    const make = await sdkServer()
    const enableJsonResponse = contender === "mcp-sdk-json"
    const { WebStandardStreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")
    return async (request) => {
      const server = make()
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse })
      await server.connect(transport)
      return transport.handleRequest(request)
    }
  }
  throw new Error(`${contender} has no in-process handler`)
}

/** Listens on 127.0.0.1:0; resolves the base URL. */
async function listen(contender) {
  if (contender === "toolnexus" || contender === "reference") {
    const { toolkit, options } = await toolkitOf(contender)
    return (await toolkit.serve("127.0.0.1:0", options)).url
  }
  if (contender.startsWith("mcp-sdk")) {
    const make = await sdkServer()
    const enableJsonResponse = contender === "mcp-sdk-json"
    const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js")
    const server = http.createServer(async (req, res) => {
      let body = ""
      for await (const chunk of req) body += chunk
      const mcp = make()
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse })
      res.on("close", () => {
        void transport.close()
        void mcp.close()
      })
      await mcp.connect(transport)
      await transport.handleRequest(req, res, JSON.parse(body))
    })
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
    return `http://127.0.0.1:${server.address().port}`
  }
  throw new Error(`unknown contender ${contender}`)
}

// ---------------------------------------------------------------------------------------------
// The load

/** `send()` → {status, text}; `count` calls with `concurrency` in flight; every answer checked. */
async function drive(send, check, count, concurrency) {
  let next = 0
  const worker = async () => {
    while (next < count) {
      next++
      const { status, text } = await send()
      check(status, text)
    }
  }
  const t = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return (performance.now() - t) / 1000
}

function httpSender(base) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const url = new URL(base)
  return (path, headers, body) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, agent }, (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode, text }))
      })
      req.on("error", reject)
      req.end(body)
    })
}

function inProcessSender(handler) {
  return async (path, headers, body) => {
    const response = await handler(new Request(`http://127.0.0.1${path}`, { method: "POST", headers, body }))
    return { status: response.status, text: await response.text() }
  }
}

/** Sends a SendMessage and waits for its task to be completed; the task id. */
async function completedTask(send) {
  const message = { role: "user", messageId: "m-bench", parts: [{ kind: "text", text: TASK_TEXT }] }
  const sent = await send("/", A2A_HEADERS, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }))
  const id = JSON.parse(sent.text).result?.id
  if (!id) throw new Error(`SendMessage answered ${sent.status} ${sent.text.slice(0, 200)}`)
  for (let i = 0; i < 1000; i++) {
    const got = JSON.parse((await send("/", A2A_HEADERS, getTaskBody(id))).text)
    if (got.result?.status?.state === "completed") return id
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`task ${id} never completed`)
}

async function loadChild({ contender, op, transport, base, warmup, count }) {
  const send = transport === "http" ? httpSender(base) : inProcessSender(await inProcessHandler(contender))
  let request
  let check
  if (op === "gettask") {
    const id = await completedTask(send)
    const body = getTaskBody(id)
    request = () => send("/", A2A_HEADERS, body)
    check = (status, text) => {
      if (status !== 200 || !text.includes(`"id":"${id}"`) || !text.includes('"completed"') || !text.includes(ANSWER)) throw new Error(`${contender} GetTask answered ${status} ${text.slice(0, 300)}`)
    }
  } else {
    request = () => send("/mcp", MCP_HEADERS, MCP_BODY)
    check = (status, text) => {
      if (status !== 200 || !text.includes('"text":"echo:ping"') || text.includes('"isError":true')) throw new Error(`${contender} tools/call answered ${status} ${text.slice(0, 300)}`)
    }
  }
  await drive(request, check, warmup, CONCURRENCY)
  globalThis.gc?.()
  const seconds = await drive(request, check, count, CONCURRENCY)
  return { rps: count / seconds, seconds }
}

if (flags.child) {
  const task = flags.child
  if (task.role === "server") {
    console.log(JSON.stringify({ url: await listen(task.contender) }))
    // Serves until the parent stops it (an orderly exit, so `node --cpu-prof` writes its profile).
    process.on("SIGTERM", () => process.exit(0))
  } else {
    console.log(JSON.stringify(await loadChild(task)))
    process.exit(0)
  }
} else {
  await main()
}

// ---------------------------------------------------------------------------------------------
// The runner

function startServer(script, contender) {
  return startServerChild(script, { contender }, contender)
}

async function main() {
  const script = fileURLToPath(import.meta.url)
  const started = performance.now()
  const v = versions()
  const counts = flags.smoke ? { warmup: 20, count: 50 } : flags.quick ? { warmup: 500, count: 1500 } : { warmup: 1000, count: 5000 }
  const rows = [
    ["gettask", "inproc", ["toolnexus"]],
    ["gettask", "http", ["toolnexus", "reference"]],
    ["mcp", "inproc", ["toolnexus", "mcp-sdk", "mcp-sdk-json"]],
    ["mcp", "http", ["toolnexus", "reference", "mcp-sdk", "mcp-sdk-json"]],
  ].filter(([, transport]) => want(transport))
  const results = []
  for (const [op, transport, contenders] of rows) {
    const by = Object.fromEntries(contenders.map((c) => [c, []]))
    for (let round = 0; round < flags.repeats; round++) {
      for (const contender of orderFor(contenders, round)) {
        const server = transport === "http" ? await startServer(script, contender) : null
        try {
          by[contender].push(inChild(script, { role: "load", contender, op, transport, base: server?.url, ...counts }))
        } finally {
          server?.stop()
        }
      }
    }
    results.push({ op, transport, by })
  }

  console.log(`serving (issue 29): requests per second, ${CONCURRENCY} in flight, ${counts.warmup} warm-up + ${counts.count} timed requests a process, ${flags.repeats} fresh process(es) per contender`)
  console.log(`  ${machineLine()}`)
  console.log(`  toolnexus-wasm ${v.toolnexusWasm}; reference ${v.reference} (its @modelcontextprotocol/sdk ${v.referenceMcpSdk}); @modelcontextprotocol/sdk ${v.mcpSdk}`)
  const label = { gettask: "A2A GetTask", mcp: "MCP tools/call (echo)" }
  const where = { inproc: "in process (a Request to the handler)", http: "127.0.0.1 (node:http keep-alive client, server in its own process)" }
  for (const { op, transport, by } of results) {
    const med = Object.fromEntries(Object.entries(by).map(([c, rs]) => [c, median(rs.map((r) => r.rps))]))
    const peers = Object.keys(med).filter((c) => c !== "toolnexus")
    const ratios = peers.map((p) => `${ratio(med.toolnexus, med[p])} of ${p}`).join(", ")
    console.log(`\n  ${label[op]}, ${where[transport]}`)
    for (const [c, rs] of Object.entries(by)) console.log(`    ${c.padEnd(12)} ${med[c].toFixed(0).padStart(7)} req/s   (repeats: ${rs.map((r) => r.rps.toFixed(0)).join(", ")})`)
    console.log(`    toolnexus-wasm: ${peers.length ? `${ratios} (goal ≥ 1.00x each)` : "no peer serves this in process (the reference's serve is node:http only)"}`)
  }
  console.log(`\n  ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${machineLine().split("load average ")[1]}`)
}
