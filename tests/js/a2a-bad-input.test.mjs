// Bad input at both ends of A2A (issue 29), on the built package, over 127.0.0.1.
// Inbound: every malformed request a served toolkit can get, over a real socket, is a precise
// JSON-RPC error, the server keeps serving, no task already in the store is lost, and no request
// header value (nor the model's key) appears in any response or log. The body size cap
// (`a2a.maxBodyBytes`) refuses a 10 MB message with 413, and a body that never ends is refused
// after the cap is read, not buffered. Outbound: a card that is not JSON or has no `url`, an
// agent that answers garbage, and one that never answers are each a clear error result.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { agent, agentTools, createClient, createToolkit, FileTaskStore, IndexedDbTaskStore, resolveStore } from "../../pkg/node.mjs"
import { openai, startOpenAIStub } from "./support/stub-server.mjs"
import { assertCode, thrown } from "./support/helpers.mjs"

const SECRET_HEADER = "Bearer header-secret-7f3a9"
const SECRET_KEY = "sk-model-key-5521"
const textMessage = (text) => ({ message: { role: "user", parts: [{ kind: "text", text }] } })

/** Every console line written while `body` runs, with `body`'s result. */
async function capturingConsole(body) {
  const lines = []
  const saved = {}
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    saved[level] = console[level]
    console[level] = (...args) => lines.push(args.map(String).join(" "))
  }
  try {
    return { value: await body(), lines }
  } finally {
    Object.assign(console, saved)
  }
}

describe("a served toolkit under bad input keeps serving, loses no task, shows no secret", () => {
  let stub
  let srv
  let dir
  let endpoint
  const responses = []
  /** POST `body` (a string as it is, else JSON) to `/` with a secret Authorization header. */
  async function post(body, headers = {}) {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: SECRET_HEADER, "x-api-key": "key-in-a-header-99", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    })
    const text = await res.text()
    responses.push(text)
    return { status: res.status, text, json: () => JSON.parse(text) }
  }
  const rpcError = async (body, headers) => {
    const res = await post(body, headers)
    assert.equal(res.status, 200, res.text)
    return res.json()
  }
  async function untilEnded(id) {
    for (;;) {
      const env = (await post({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id } })).json()
      assert.ok(env.result, `GetTask ${id}: ${JSON.stringify(env)}`)
      if (env.result.status.state !== "submitted" && env.result.status.state !== "working") return env.result
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  let known
  /** The task made before the barrage is still there, whole, and a new one completes. */
  async function stillServing(label) {
    assert.deepEqual(await untilEnded(known.id), known, `${label}: the earlier task is intact`)
    const sent = (await post({ jsonrpc: "2.0", id: 2, method: "SendMessage", params: textMessage(`after ${label}`) })).json()
    const task = await untilEnded(sent.result.id)
    assert.equal(task.status.state, "completed", `${label}: ${JSON.stringify(task.status)}`)
    assert.equal(task.artifacts[0].parts[0].text, `ANSWER: after ${label}`)
  }

  before(async () => {
    stub = await startOpenAIStub()
    stub.respond((request) => openai.text(`ANSWER: ${request.body.messages.at(-1).content}`))
    const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: SECRET_KEY, retries: 0 })
    dir = mkdtempSync(join(tmpdir(), "a2a-bad-"))
    const tk = await createToolkit({ builtins: false })
    srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "desk", store: new FileTaskStore(dir) } })
    endpoint = `${srv.url}/`
    const first = (await post({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: textMessage("the first task") })).json()
    known = await untilEnded(first.result.id)
    assert.equal(known.status.state, "completed")
  })
  after(async () => {
    await srv?.stop()
    await stub?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test("each malformed request is its precise JSON-RPC error, and the server keeps serving", async () => {
    const { lines } = await capturingConsole(async () => {
      const cases = [
        ["not JSON", "{nope", { code: -32700, message: "Parse error" }],
        ["an empty body", "", { code: -32700, message: "Parse error" }],
        ["a batch", [{ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: known.id } }], { code: -32600, message: "Invalid Request: batches are not supported" }],
        ["no method", { jsonrpc: "2.0", id: 3 }, { code: -32600, message: "Invalid Request: expected a JSON-RPC 2.0 request object with a method" }],
        ["a JSON string", '"SendMessage"', { code: -32600, message: "Invalid Request: expected a JSON-RPC 2.0 request object with a method" }],
        ["no params.message", { jsonrpc: "2.0", id: 4, method: "SendMessage", params: {} }, { code: -32602, message: "Invalid params: SendMessage needs params.message with a parts array" }],
        ["parts not an array", { jsonrpc: "2.0", id: 5, method: "SendMessage", params: { message: { role: "user", parts: "hi" } } }, { code: -32602, message: "Invalid params: SendMessage needs params.message with a parts array" }],
        ["a data part", { jsonrpc: "2.0", id: 6, method: "SendMessage", params: { message: { role: "user", parts: [{ kind: "data", data: { a: 1 } }] } } }, { code: -32602, message: "Invalid params: the message has no text part (this agent reads text only)" }],
        ["a file part (1.0)", { jsonrpc: "2.0", id: 7, method: "SendMessage", params: { message: { role: "ROLE_USER", parts: [{ url: "https://x/y.png", mediaType: "image/png" }] } } }, { code: -32602, message: "Invalid params: the message has no text part (this agent reads text only)" }],
        ["no parts", { jsonrpc: "2.0", id: 8, method: "SendMessage", params: { message: { role: "user", parts: [] } } }, { code: -32602, message: "Invalid params: the message has no text part (this agent reads text only)" }],
        ["an unknown task", { jsonrpc: "2.0", id: 9, method: "GetTask", params: { id: "no-such-task" } }, { code: -32001, message: "Task not found: no-such-task" }],
        ["a path as a task id", { jsonrpc: "2.0", id: 10, method: "GetTask", params: { id: `../${known.id}` } }, { code: -32001, message: `Task not found: ../${known.id}` }],
        ["GetTask without id", { jsonrpc: "2.0", id: 11, method: "GetTask", params: {} }, { code: -32602, message: "Invalid params: GetTask needs params.id" }],
        ["message/send", { jsonrpc: "2.0", id: 12, method: "message/send", params: textMessage("x") }, { code: -32601, message: "Method not found: message/send (an A2A 0.3 method name; this agent speaks A2A 1.0, where it is SendMessage)" }],
        ["tasks/get", { jsonrpc: "2.0", id: 13, method: "tasks/get", params: { id: known.id } }, { code: -32601, message: "Method not found: tasks/get (an A2A 0.3 method name; this agent speaks A2A 1.0, where it is GetTask)" }],
        ["an unknown method", { jsonrpc: "2.0", id: 14, method: "CancelTask", params: { id: known.id } }, { code: -32601, message: "Method not found: CancelTask" }],
      ]
      for (const [label, body, expected] of cases) {
        const env = await rpcError(body)
        assert.deepEqual(env.error, expected, label)
        assert.equal(env.result, undefined, label)
        const id = typeof body === "object" && !Array.isArray(body) ? body.id : null
        assert.equal(env.id, id, `${label}: the request's id is echoed (null when unreadable)`)
        await stillServing(label)
      }
    })
    assert.deepEqual(lines, [], "nothing is logged")
    for (const text of responses) {
      assert.ok(!text.includes("header-secret-7f3a9"), "no header value in a response")
      assert.ok(!text.includes("key-in-a-header-99"), "no header value in a response")
      assert.ok(!text.includes(SECRET_KEY), "no model key in a response")
    }
    const files = readdirSync(dir)
    assert.ok(files.every((f) => /^[0-9a-f-]{36}\.json$/.test(f)), `only whole task files: ${files}`)
    assert.ok(files.includes(`${known.id}.json`))
  })

  test("a 10 MB message is refused with 413 and -32600 naming the cap; the server keeps serving", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: textMessage("x".repeat(10 * 1024 * 1024)) })
    const before = readdirSync(dir).length
    const res = await post(big)
    assert.equal(res.status, 413)
    assert.deepEqual(res.json(), {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the body is larger than 1048576 bytes (a2a.maxBodyBytes); nothing of it was run" },
    })
    assert.equal(readdirSync(dir).length, before, "no task was made of it")
    await stillServing("a 10 MB message")
    // Without a Content-Length (a chunked upload), the cap holds as the body is read.
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big))
        controller.close()
      },
    })
    const res2 = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json" }, body: chunked, duplex: "half" })
    assert.equal(res2.status, 413)
    assert.equal((await res2.json()).error.code, -32600)
    await stillServing("a chunked 10 MB message")
  })
})

describe("the body cap in the handler (no socket)", () => {
  let client
  let stub
  before(async () => {
    stub = await startOpenAIStub()
    stub.respond(() => openai.text("OK"))
    client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", retries: 0 })
  })
  after(() => stub.close())

  test("a body that never ends is refused once the cap is read; the rest is never pulled", async () => {
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: { name: "desk", maxBodyBytes: 64 * 1024 } })
    let pulled = 0
    const chunk = new Uint8Array(16 * 1024).fill(0x20) // spaces: a JSON prefix that never ends
    const endless = new ReadableStream({
      pull(controller) {
        pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const res = await handler(new Request("http://127.0.0.1:9/", { method: "POST", body: endless, duplex: "half" }))
    assert.equal(res.status, 413)
    assert.equal((await res.json()).error.message, "Invalid Request: the body is larger than 65536 bytes (a2a.maxBodyBytes); nothing of it was run")
    assert.ok(pulled <= 64 * 1024 + 3 * chunk.byteLength, `read ${pulled} bytes of an endless body`)
  })

  test("the MCP profile of the same handler stops reading at its 4 MiB cap too", async () => {
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: {}, mcp: {} })
    let pulled = 0
    const chunk = new Uint8Array(256 * 1024).fill(0x20)
    const endless = new ReadableStream({
      pull(controller) {
        pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
    const res = await handler(new Request("http://127.0.0.1:9/mcp", { method: "POST", headers, body: endless, duplex: "half" }))
    assert.equal(res.status, 413)
    assert.deepEqual(await res.json(), { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Payload Too Large: a message is at most 4194304 bytes" } })
    assert.ok(pulled <= 4 * 1024 * 1024 + 3 * chunk.byteLength, `read ${pulled} bytes of an endless body`)
    const list = await handler(new Request("http://127.0.0.1:9/mcp", { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }))
    assert.equal(list.status, 200, "and keeps serving")
  })

  test("a declared Content-Length over the cap is refused before any of the body is read", async () => {
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: { maxBodyBytes: 100 } })
    let pulled = 0
    const body = new ReadableStream({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(10))
      },
    })
    const request = new Request("http://127.0.0.1:9/", { method: "POST", body, duplex: "half", headers: { "content-length": "5000" } })
    const res = await handler(request)
    assert.equal(res.status, 413)
    assert.ok(pulled <= 1, `pulled ${pulled} chunks`) // a stream may pull once on its own when made
  })

  test("a body exactly at the cap is read; one byte over is refused", async () => {
    const tk = await createToolkit({ builtins: false })
    const exact = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } })
    const handler = tk.handler({ client, a2a: { maxBodyBytes: new TextEncoder().encode(exact).length } })
    const at = await handler(new Request("http://127.0.0.1:9/", { method: "POST", body: exact }))
    assert.deepEqual((await at.json()).error, { code: -32001, message: "Task not found: x" })
    const over = await handler(new Request("http://127.0.0.1:9/", { method: "POST", body: `${exact} ` }))
    assert.equal(over.status, 413)
  })

  test("a body stream that fails midway is -32700; bad cap and lease options are invalid_options", async () => {
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: {} })
    let sent = false
    const failing = new ReadableStream({
      pull(controller) {
        if (sent) return controller.error(new Error("connection reset"))
        sent = true
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'))
      },
    })
    const res = await handler(new Request("http://127.0.0.1:9/", { method: "POST", body: failing, duplex: "half" }))
    assert.deepEqual((await res.json()).error, { code: -32700, message: "Parse error: the request body could not be read" })
    for (const a2a of [{ maxBodyBytes: 0 }, { maxBodyBytes: 1.5 }, { maxBodyBytes: "1mb" }, { lease: -1 }, { lease: "30s" }, { owner: "" }, { owner: 7 }]) {
      const error = assertCode(thrown(() => tk.handler({ client, a2a })), "invalid_options")
      assert.match(error.message, /^a2a\.(maxBodyBytes|lease|owner): expected /, JSON.stringify(a2a))
    }
  })
})

test("IndexedDbTaskStore where there is no IndexedDB (Node) is unsupported, naming the alternative", () => {
  const error = assertCode(thrown(() => new IndexedDbTaskStore()), "unsupported")
  assert.match(error.message, /IndexedDB is not available/)
  assertCode(thrown(() => resolveStore("indexeddb:desk")), "unsupported")
  assert.match(assertCode(thrown(() => resolveStore("redis:x")), "invalid_options").message, /"indexeddb\[:<database>\]"/)
})

describe("outbound: a remote agent that is broken", () => {
  const servers = []
  /** A server on 127.0.0.1:0 answering with `handle(req, body, res)`; resolves to its origin. */
  async function serveWith(handle) {
    const received = []
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        received.push({ url: req.url, headers: req.headers, body })
        handle(req, body, res, server)
      })
    })
    servers.push(server)
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
    return { origin: `http://127.0.0.1:${server.address().port}`, received }
  }
  const card = (extra) => ({ name: "remote", skills: [{ id: "work", description: "Works" }], ...extra })
  const reply = (res, status, body, type = "application/json") => {
    res.writeHead(status, { "content-type": type })
    res.end(typeof body === "string" ? body : JSON.stringify(body))
  }
  after(() => Promise.all(servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve))))))

  test("a card without url: the JSON-RPC endpoint is the card URL's origin", async () => {
    const remote = await serveWith((req, body, res) => {
      if (req.method === "GET") return reply(res, 200, card())
      const rpc = JSON.parse(body)
      if (req.url !== "/") return reply(res, 404, "wrong path", "text/plain")
      reply(res, 200, { jsonrpc: "2.0", id: rpc.id, result: { id: "t1", status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "DONE" }] }] } })
    })
    const [tool] = await agentTools(agent({ card: `${remote.origin}/cards/remote.json`, pollEvery: 10 }))
    const r = await tool.execute({ task: "go" })
    assert.equal(r.isError, false, r.output)
    assert.equal(r.output, "DONE")
    assert.equal(remote.received.at(-1).url, "/", "posted to the origin")
  })

  test("a card without url whose origin is no agent: the HTTP status and body, clipped", async () => {
    const remote = await serveWith((req, body, res) => (req.method === "GET" ? reply(res, 200, card()) : reply(res, 404, "<html>no agent here</html>", "text/html")))
    const [tool] = await agentTools(agent({ card: `${remote.origin}/agent.json` }))
    const r = await tool.execute({ task: "go" })
    assert.equal(r.isError, true)
    assert.equal(r.output, "HTTP 404: <html>no agent here</html>")
  })

  test("a card that is not JSON, or not an object, is bad_response naming what it got", async () => {
    const remote = await serveWith((req, body, res) => reply(res, 200, req.url === "/array" ? "[1,2]" : "<html>login</html>", "text/html"))
    await assert.rejects(agentTools(`${remote.origin}/card`), (e) => e.code === "bad_response" && /not JSON.*<html>login<\/html>/.test(e.message))
    await assert.rejects(agentTools(`${remote.origin}/array`), (e) => e.code === "bad_response" && /must be a JSON object, got array/.test(e.message))
  })

  test("garbage from SendMessage or GetTask is an error result quoting it, with the header value redacted", async () => {
    let mode = "send"
    const remote = await serveWith((req, body, res) => {
      if (req.method === "GET") return reply(res, 200, card({ url: `http://${req.headers.host}/` }))
      const rpc = JSON.parse(body)
      const echoed = req.headers["x-key"] // a broken agent that echoes what it got
      if (mode === "send") return reply(res, 200, `<html>oops ${echoed}</html>`, "text/html")
      if (mode === "result" ) return reply(res, 200, { jsonrpc: "2.0", id: rpc.id, result: 42 })
      if (rpc.method === "SendMessage") return reply(res, 200, { jsonrpc: "2.0", id: rpc.id, result: { id: "t9", status: { state: "submitted" } } })
      reply(res, 200, `not json ${echoed}`, "text/plain")
    })
    const tools = await agentTools(agent({ card: `${remote.origin}/card`, pollEvery: 5, env: { KEY: "hidden-7788" }, headers: { "X-Key": "${KEY}" } }))
    const send = await tools[0].execute({ task: "a" })
    assert.equal(send.isError, true)
    assert.match(send.output, /^A2A SendMessage: the response is not JSON-RPC: <html>oops /)
    assert.ok(!send.output.includes("hidden-7788"), send.output)
    mode = "result"
    const result = await tools[0].execute({ task: "b" })
    assert.equal(result.output, "A2A SendMessage: the result is not a Task: 42")
    mode = "get"
    const get = await tools[0].execute({ task: "c" })
    assert.equal(get.isError, true)
    assert.match(get.output, /^A2A GetTask: the response is not JSON-RPC: not json /)
    assert.ok(!get.output.includes("hidden-7788"), get.output)
    assert.equal(get.metadata.taskId, "t9")
  })

  test("an agent that never answers, or never finishes a task, times out with the state it had", async () => {
    let mode = "silent"
    const remote = await serveWith((req, body, res) => {
      if (req.method === "GET") return reply(res, 200, card({ url: `http://${req.headers.host}/` }))
      const rpc = JSON.parse(body)
      if (mode === "silent") return // never answers
      if (rpc.method === "SendMessage") return reply(res, 200, { jsonrpc: "2.0", id: rpc.id, result: { id: "t-slow", status: { state: "submitted" } } })
      reply(res, 200, { jsonrpc: "2.0", id: rpc.id, result: { id: "t-slow", status: { state: "working" } } })
    })
    const [tool] = await agentTools(agent({ card: `${remote.origin}/card`, timeout: 400, pollEvery: 20 }))
    const silent = await tool.execute({ task: "hello?" })
    assert.equal(silent.isError, true)
    assert.equal(silent.output, "A2A task  timed out after 400ms (state=submitted)")
    mode = "working"
    const working = await tool.execute({ task: "forever" })
    assert.equal(working.output, "A2A task t-slow timed out after 400ms (state=working)")
    assert.ok(working.metadata.polls >= 1)
  })
})
