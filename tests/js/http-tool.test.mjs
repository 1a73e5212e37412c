// httpTool against a real local server on 127.0.0.1: placeholders, query strings, json / form /
// raw bodies, non-2xx, result modes, timeouts that abort the request, and ${ENV} header
// expansion that never leaks into results, errors or the console.
import { test, after, beforeEach, afterEach } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { createToolkit, httpTool, Tool } from "../../pkg/node.mjs"
import { assertCode, thrown } from "./support/helpers.mjs"

const SECRET = "sk-test-93f0c2d1e4b5"
const requests = []
const aborted = []
const server = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const recorded = { method: req.method, url: req.url, headers: req.headers, text: Buffer.concat(chunks).toString("utf8") }
    requests.push(recorded)
    const status = /^\/status\/(\d+)/.exec(req.url)
    if (req.url.startsWith("/slow")) {
      res.on("close", () => aborted.push(req.url))
      return
    }
    if (status) {
      res.writeHead(Number(status[1]), { "content-type": "text/plain" })
      res.end(`status body ${status[1]}`)
      return
    }
    if (req.url.startsWith("/json")) {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(' {"a": 1.0, "b": [1e2, "é"]} ')
      return
    }
    res.writeHead(200, { "content-type": "text/plain" })
    res.end(`ok ${req.method}`)
  })
})
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
const base = `http://127.0.0.1:${server.address().port}`
after(() => {
  server.closeAllConnections()
  server.close()
})

let logged
const real = {}
beforeEach(() => {
  requests.length = 0
  logged = []
  for (const level of ["log", "warn", "error", "info", "debug"]) {
    real[level] = console[level]
    console[level] = (...args) => logged.push(args.map(String).join(" "))
  }
})
afterEach(() => {
  for (const level of Object.keys(real)) console[level] = real[level]
  assert.ok(!logged.some((l) => l.includes(SECRET)), "no header value is ever logged")
})

const open = { type: "object" }
const tool = (options) => httpTool({ name: "endpoint", description: "An endpoint", inputSchema: open, ...options })

test("httpTool returns a Tool with source http and the given schema", () => {
  const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"] }
  const t = tool({ method: "GET", url: `${base}/x`, inputSchema: schema })
  assert.ok(t instanceof Tool)
  assert.equal(t.name, "endpoint")
  assert.equal(t.source, "http")
  assert.equal(t.description, "An endpoint")
  assert.deepEqual(t.inputSchema, schema)
  const bare = httpTool({ name: "bare", method: "GET", url: base })
  assert.deepEqual(bare.inputSchema, { type: "object", properties: {} })
})

test("GET fills URL-encoded placeholders and sends every other argument as the query", async () => {
  const t = tool({ method: "get", url: `${base}/users/{id}/posts/{slug}` })
  const r = await t.execute({ id: "a b/c", slug: 7, limit: 2, q: "x&y=z é" })
  assert.deepEqual(r, { output: "ok GET", isError: false, metadata: { status: 200 } })
  assert.equal(requests[0].method, "GET")
  assert.equal(requests[0].url, "/users/a%20b%2Fc/posts/7?limit=2&q=x%26y%3Dz+%C3%A9")
  assert.equal(requests[0].text, "")
})

test("POST sends query names in the URL and the rest as JSON", async () => {
  const t = tool({ method: "POST", url: `${base}/orgs/{org}/items?v=1`, query: ["dry_run"] })
  await t.execute({ org: "acme", name: "pen", dry_run: false, tags: ["a", 1.5] })
  assert.equal(requests[0].url, "/orgs/acme/items?v=1&dry_run=false")
  assert.equal(requests[0].text, '{"name":"pen","tags":["a",1.5]}')
  assert.equal(requests[0].headers["content-type"], "application/json")
})

test("form and raw bodies", async () => {
  await tool({ method: "PUT", url: `${base}/form`, body: "form" }).execute({ user: "a b", pass: "p&ss=1" })
  assert.equal(requests[0].method, "PUT")
  assert.equal(requests[0].text, "user=a+b&pass=p%26ss%3D1")
  assert.equal(requests[0].headers["content-type"], "application/x-www-form-urlencoded")
  await tool({ method: "POST", url: `${base}/raw/{id}`, body: "raw", headers: { "Content-Type": "text/csv" } })
    .execute({ id: 3, body: "a,b\n1,2" })
  assert.equal(requests[1].url, "/raw/3")
  assert.equal(requests[1].text, "a,b\n1,2")
  assert.equal(requests[1].headers["content-type"], "text/csv")
})

test("a non-2xx status is an error result with the body and the status", async () => {
  const t = tool({ method: "GET", url: `${base}/status/{code}` })
  assert.deepEqual(await t.execute({ code: "404" }), { output: "HTTP 404: status body 404", isError: true, metadata: { status: 404 } })
  assert.deepEqual(await t.execute({ code: "503" }), { output: "HTTP 503: status body 503", isError: true, metadata: { status: 503 } })
  assert.deepEqual(await t.execute({ code: "201" }), { output: "status body 201", isError: false, metadata: { status: 201 } })
})

test("result modes: json re-serializes, status+text prefixes the status", async () => {
  const json = await tool({ method: "GET", url: `${base}/json`, resultMode: "json" }).execute({})
  assert.equal(json.output, JSON.stringify(JSON.parse(' {"a": 1.0, "b": [1e2, "é"]} ')))
  const notJson = await tool({ method: "GET", url: `${base}/plain`, resultMode: "json" }).execute({})
  assert.equal(notJson.output, JSON.stringify("ok GET"))
  const both = await tool({ method: "GET", url: `${base}/status/202`, resultMode: "status+text" }).execute({})
  assert.equal(both.output, "202\nstatus body 202")
})

test("a timeout is an error result and aborts the request", async () => {
  const t = tool({ method: "GET", url: `${base}/slow`, timeout: 150 })
  const started = Date.now()
  const r = await t.execute({})
  assert.deepEqual(r, { output: 'HTTP tool "endpoint" timed out after 150 ms', isError: true })
  assert.ok(Date.now() - started < 5000)
  for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.deepEqual(aborted, ["/slow"], "the server saw the request go away")
  const viaCtx = await tool({ method: "GET", url: `${base}/slow?ctx` }).execute({}, { timeout: 100 })
  assert.equal(viaCtx.isError, true)
  const signal = AbortSignal.timeout(100)
  const viaSignal = await tool({ method: "GET", url: `${base}/slow?signal` }).execute({}, { signal })
  assert.equal(viaSignal.isError, true)
})

test("edges of the request: missing placeholders, null values, HEAD, a given Content-Type, doubled braces", async () => {
  await tool({ method: "GET", url: `${base}/p/{id}/{{x}}` }).execute({ x: "v", n: null, list: [1, null, "a"], o: { a: 1 } })
  // A missing placeholder is empty; `{{x}}` keeps its outer braces (which fetch's URL parser
  // percent-encodes); values are `String(value)`, `null` included.
  assert.equal(requests[0].url, "/p//%7Bv%7D?n=null&list=1%2C%2Ca&o=%5Bobject+Object%5D")
  await tool({ method: "HEAD", url: `${base}/head` }).execute({ a: 1 })
  assert.equal(requests[1].method, "HEAD")
  assert.equal(requests[1].url, "/head")
  await tool({ method: "POST", url: `${base}/typed`, headers: { "content-TYPE": "application/vnd.x+json" } }).execute({ a: 1 })
  assert.equal(requests[2].headers["content-type"], "application/vnd.x+json")
  assert.equal(requests[2].text, '{"a":1}')
  await tool({ method: "POST", url: `${base}/raw`, body: "raw" }).execute({ other: 1 })
  assert.equal(requests[3].text, "", "raw without a body argument sends an empty body")
  await tool({ method: "DELETE", url: `${base}/none` }).execute({})
  assert.equal(requests[4].text, "")
})

test("the call's timeout wins over the declared one; a reply before the timeout wins", async () => {
  const slow = tool({ method: "GET", url: `${base}/slow?both`, timeout: 60000 })
  const r = await slow.execute({}, { timeout: 120 })
  assert.equal(r.isError, true)
  const quick = await tool({ method: "GET", url: `${base}/quick`, timeout: 5000 }).execute({})
  assert.deepEqual(quick, { output: "ok GET", isError: false, metadata: { status: 200 } })
})

test("a network failure is an error result naming the cause, never the header values", async () => {
  const closed = http.createServer()
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve))
  const port = closed.address().port
  await new Promise((resolve) => closed.close(resolve))
  const t = tool({ method: "GET", url: `http://127.0.0.1:${port}/x`, headers: { Authorization: `Bearer ${SECRET}` } })
  const r = await t.execute({})
  assert.equal(r.isError, true)
  assert.match(r.output, /ECONNREFUSED/)
  assert.ok(!r.output.includes(SECRET))
})

test("${ENV} in header values expands from env, else process.env, and never leaks", async () => {
  const headers = { Authorization: "Bearer ${TN_TEST_TOKEN}", "X-Missing": "a${TN_NOPE}b", "X-Literal": "$TN_TEST_TOKEN" }
  await tool({ method: "GET", url: `${base}/me`, headers, env: { TN_TEST_TOKEN: SECRET } }).execute({})
  assert.equal(requests[0].headers.authorization, `Bearer ${SECRET}`)
  assert.equal(requests[0].headers["x-missing"], "ab")
  assert.equal(requests[0].headers["x-literal"], "$TN_TEST_TOKEN")
  process.env.TN_TEST_TOKEN = SECRET
  try {
    await tool({ method: "GET", url: `${base}/me`, headers }).execute({})
    assert.equal(requests[1].headers.authorization, `Bearer ${SECRET}`)
    const failures = [
      await tool({ method: "GET", url: `${base}/status/401`, headers }).execute({}),
      await tool({ method: "GET", url: `${base}/slow?env`, headers, timeout: 50 }).execute({}),
      await tool({ method: "GET", url: "http://127.0.0.1:1/closed", headers }).execute({}),
    ]
    for (const r of failures) {
      assert.equal(r.isError, true)
      assert.ok(!JSON.stringify(r).includes(SECRET), JSON.stringify(r))
    }
  } finally {
    delete process.env.TN_TEST_TOKEN
  }
  const t = tool({ method: "GET", url: `${base}/me`, headers })
  assert.ok(!JSON.stringify(t.inputSchema).includes(SECRET))
})

test("through a toolkit, arguments are checked against inputSchema before any request", async () => {
  const weather = tool({
    name: "weather", method: "GET", url: `${base}/weather/{city}`,
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  })
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather] })
  assert.equal(toolkit.get("weather"), weather)
  const bad = await toolkit.execute("weather", { city: 5 })
  assert.equal(bad.isError, true)
  assert.equal(requests.length, 0)
  const good = await toolkit.execute("weather", { city: "Oslo" })
  assert.equal(good.output, "ok GET")
  assert.equal(requests[0].url, "/weather/Oslo")
})

test("a custom fetch is the transport", async () => {
  const seen = []
  const fetch = async (url, init) => {
    seen.push({ url, ...init })
    return new Response("from custom fetch", { status: 200 })
  }
  const r = await tool({ method: "DELETE", url: "https://api.test/items/{id}", fetch }).execute({ id: 9 })
  assert.equal(r.output, "from custom fetch")
  assert.equal(seen[0].url, "https://api.test/items/9")
  assert.equal(seen[0].method, "DELETE")
  assert.equal(seen[0].body, undefined)
})

test("bad options throw with a code", () => {
  assertCode(thrown(() => httpTool({ name: "x", url: base })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET" })), "invalid_options")
  assertCode(thrown(() => httpTool(5)), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, body: "xml" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, resultMode: "html" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, timeout: -1 })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, headers: { a: 1 } })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, query: "a" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, env: "A=1" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, env: () => "v" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, fetch: "f" })), "invalid_options")
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, description: 5 })), "invalid_options")
  const bad = assertCode(thrown(() => httpTool({ name: "get weather", method: "GET", url: base })), "invalid_tool")
  assert.match(bad.message, /sanitize gives "get_weather"/)
  assertCode(thrown(() => httpTool({ name: "x", method: "GET", url: base, inputSchema: { type: "string" } })), "invalid_tool")
})
