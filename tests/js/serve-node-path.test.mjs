// `toolkit.serve` on node:http answers through the routes' own dispatch, writing to Node's
// response without a WHATWG `Request`/`Response` (src/js/serve-node.js), while
// `toolkit.handler` stays a `(Request) => Promise<Response>`. The two must answer alike: each
// request here goes both ways, over a real socket (node:http, headers exactly as written) and
// to the handler in process, and the status, content type and body must be the same, for the
// A2A routes, the MCP route, the body cap (declared, and chunked so the body streams), a
// request target with a query or dot segments, a byte-order mark, and a path no route takes.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { createClient, createToolkit, defineTool, InMemoryTaskStore } from "../../pkg/node.mjs"

const CAP = 512

/** A model that answers at once, in process (the A2A task's run). */
async function modelFetch() {
  const message = { role: "assistant", content: "the answer" }
  const body = { id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message, finish_reason: "stop" }] }
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } })
}

/** One request over node:http, headers as given; `chunked` sends the body in two writes without a length. */
function overSocket(base, { method, path, headers = {}, body, chunked = false }) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body: text }))
    })
    req.on("error", reject)
    if (body === undefined) return void req.end()
    if (!chunked) return void req.end(body)
    const half = Math.floor(body.length / 2)
    req.write(body.slice(0, half))
    req.end(body.slice(half))
  })
}

/** The same request to the WHATWG handler, in process. */
async function inProcess(handler, base, { method, path, headers = {}, body }) {
  const response = await handler(new Request(`${base}${path}`, { method, headers, body }))
  return { status: response.status, type: response.headers.get("content-type") ?? undefined, body: await response.text() }
}

describe("serve on node:http answers as the WHATWG handler does", () => {
  let toolkit
  let options
  let srv
  let handler
  let taskId

  before(async () => {
    const echo = defineTool({
      name: "echo",
      description: "Echoes its text",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      run: ({ text }) => `echo:${text}`,
    })
    toolkit = await createToolkit({ builtins: false, extraTools: [echo] })
    const client = createClient({ baseUrl: "http://model.local/v1", style: "openai", model: "m", apiKey: "k", fetch: modelFetch })
    // One store for both: a task made over HTTP is read both ways.
    options = { client, a2a: { name: "same", maxBodyBytes: CAP, store: new InMemoryTaskStore() }, mcp: { name: "same" } }
    srv = await toolkit.serve("127.0.0.1:0", options)
    handler = toolkit.handler(options)
    const sent = await overSocket(srv.url, {
      method: "POST",
      path: "/",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { role: "user", parts: [{ kind: "text", text: "go" }] }, configuration: { blocking: true } } }),
    })
    assert.equal(sent.status, 200)
    taskId = JSON.parse(sent.body).result.id
    assert.equal(JSON.parse(sent.body).result.status.state, "completed")
  })

  after(() => srv?.stop())

  test("toolkit.handler is still a function of a Request to a Response", async () => {
    assert.equal(typeof handler, "function")
    const response = await handler(new Request("http://127.0.0.1/nowhere"))
    assert.ok(response instanceof Response)
    assert.equal(response.status, 404)
  })

  const json = { "content-type": "application/json" }
  const rpc = (method, params) => JSON.stringify({ jsonrpc: "2.0", id: 3, method, params })
  const cases = [
    ["the Agent Card", { method: "GET", path: "/.well-known/agent-card.json" }],
    ["a path no route takes", { method: "GET", path: "/nothing" }],
    ["a POST to a path no route takes", { method: "POST", path: "/elsewhere", headers: json, body: "{}" }],
    ["an unknown task", { method: "POST", path: "/", headers: json, body: rpc("GetTask", { id: "no-such-task" }) }],
    ["a body that is not JSON", { method: "POST", path: "/", headers: json, body: "{not json" }],
    ["a batch", { method: "POST", path: "/", headers: json, body: "[]" }],
    ["an A2A 0.3 method", { method: "POST", path: "/", headers: json, body: rpc("tasks/get", { id: "x" }) }],
    ["GetTask without an id", { method: "POST", path: "/", headers: json, body: rpc("GetTask", {}) }],
    ["a declared body over a2a.maxBodyBytes", { method: "POST", path: "/", headers: json, body: "x".repeat(CAP + 1) }],
    ["a chunked body over a2a.maxBodyBytes", { method: "POST", path: "/", headers: json, body: "x".repeat(CAP * 4), chunked: true }],
    ["MCP tools/list", { method: "POST", path: "/mcp", headers: { ...json, accept: "application/json, text/event-stream" }, body: rpc("tools/list", {}) }],
    ["MCP without an acceptable Accept", { method: "POST", path: "/mcp", headers: { ...json, accept: "text/html" }, body: rpc("tools/list", {}) }],
    ["MCP tools/call", { method: "POST", path: "/mcp", headers: { ...json, accept: "application/json" }, body: rpc("tools/call", { name: "echo", arguments: { text: "hi" } }) }],
    ["MCP GET (no stream here)", { method: "GET", path: "/mcp", headers: { accept: "text/event-stream" } }],
  ]
  for (const [name, request] of cases) {
    test(name, async () => {
      const socket = await overSocket(srv.url, request)
      const local = await inProcess(handler, srv.url, request)
      assert.deepEqual(socket, local)
    })
  }

  // The task's id is known once `before` ran: each request is made in its test.
  const task = (extra = {}) => () => ({ method: "POST", path: "/", headers: json, body: rpc("GetTask", { id: taskId }), ...extra })
  const getTasks = [
    ["GetTask of a completed task", task()],
    ["GetTask in A2A 1.0 (its header)", task({ headers: { ...json, "a2a-version": "1.0" } })],
    ["GetTask at a target with a query", task({ path: "/?trace=1" })],
    ["GetTask at a target with dot segments", task({ path: "/a/../" })],
    ["GetTask in a body that starts with a byte-order mark", () => ({ ...task()(), body: `\uFEFF${rpc("GetTask", { id: taskId })}` })],
    ["GetTask in a chunked body (streamed, under the cap)", task({ chunked: true })],
  ]
  for (const [name, make] of getTasks) {
    test(name, async () => {
      const request = make()
      const socket = await overSocket(srv.url, request)
      const local = await inProcess(handler, srv.url, request)
      assert.equal(socket.status, 200, socket.body)
      assert.equal(JSON.parse(socket.body).result?.id ?? JSON.parse(socket.body).result?.task?.id, taskId)
      assert.deepEqual(socket, local)
    })
  }
})
