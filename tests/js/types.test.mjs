// The contract's data types as a user sees them: ToolResult, Request, Answer, pending,
// authRequired, pendingOf and sanitize (SPEC §0, §1, §10).
import { test } from "node:test"
import assert from "node:assert/strict"
import {
  authRequired,
  createToolkit,
  defineTool,
  pending,
  pendingOf,
  sanitize,
} from "../../pkg/node.mjs"

const ID = /^pnd-[0-9a-f]{16}$/

test("ToolResult keys: exactly output and isError, plus metadata only when present", async () => {
  const plain = defineTool({ name: "plain", run: () => "hi" })
  const withMeta = defineTool({
    name: "meta",
    run: () => ({ output: "o", isError: false, metadata: { k: 1 } }),
  })
  const r1 = await plain.execute({})
  assert.deepEqual(Object.keys(r1), ["output", "isError"])
  assert.deepEqual(r1, { output: "hi", isError: false })
  const r2 = await withMeta.execute({})
  assert.deepEqual(Object.keys(r2), ["output", "isError", "metadata"])
  assert.deepEqual(r2, { output: "o", isError: false, metadata: { k: 1 } })
})

test("pending: output is the prompt, isError true, metadata.pending the Request", () => {
  const r = pending({ kind: "approval", prompt: "Send 3 emails?" })
  assert.deepEqual(Object.keys(r), ["output", "isError", "metadata"])
  assert.equal(r.output, "Send 3 emails?")
  assert.equal(r.isError, true)
  assert.deepEqual(Object.keys(r.metadata), ["pending"])
  assert.deepEqual(Object.keys(r.metadata.pending).sort(), ["id", "kind", "prompt"])
  assert.match(r.metadata.pending.id, ID)
  assert.equal(r.metadata.pending.kind, "approval")
  assert.equal(r.metadata.pending.prompt, "Send 3 emails?")
})

test("pending: url is appended to the output after a newline", () => {
  const r = pending({ kind: "authorization", prompt: "Log in", url: "https://x.test/login" })
  assert.equal(r.output, "Log in\nhttps://x.test/login")
  assert.equal(r.metadata.pending.url, "https://x.test/login")
  assert.equal(pending({ kind: "k", prompt: "p", url: undefined }).output, "p")
})

test("pending: a full Request keeps every given key, byte-exact, id first", () => {
  const input = {
    kind: "input",
    prompt: "Your name?",
    id: "req-1",
    url: "https://x.test/form",
    data: { schema: { type: "string" }, n: 1.5 },
    expiresAt: "2030-01-01T00:00:00Z",
  }
  const r = pending(input)
  assert.equal(
    JSON.stringify(r),
    '{"output":"Your name?\\nhttps://x.test/form","isError":true,"metadata":{"pending":' +
      '{"id":"req-1","kind":"input","prompt":"Your name?","url":"https://x.test/form",' +
      '"data":{"schema":{"type":"string"},"n":1.5},"expiresAt":"2030-01-01T00:00:00Z"}}}',
  )
  assert.deepEqual(Object.keys(r.metadata.pending).sort(), Object.keys(input).sort())
})

test("pending: a given id is kept; generated ids are unique across 1000 calls", () => {
  assert.equal(pending({ id: "mine", kind: "k", prompt: "p" }).metadata.pending.id, "mine")
  const ids = new Set()
  for (let i = 0; i < 1000; i++) {
    const id = pending({ kind: "k", prompt: "p" }).metadata.pending.id
    assert.match(id, ID)
    ids.add(id)
  }
  assert.equal(ids.size, 1000)
})

test("pending: bad input throws an Error with code invalid_request", () => {
  const cases = [
    [undefined, "pending: expected a request object {kind, prompt, id?, url?, data?, expiresAt?}, got undefined"],
    [null, "pending: expected a request object {kind, prompt, id?, url?, data?, expiresAt?}, got null"],
    ["Send?", "pending: expected a request object {kind, prompt, id?, url?, data?, expiresAt?}, got string"],
    [{ kind: "approval" }, "pending: invalid request: missing field `prompt`"],
    [{ prompt: "p" }, "pending: invalid request: missing field `kind`"],
  ]
  for (const [input, message] of cases) {
    assert.throws(
      () => pending(input),
      (e) => e instanceof Error && e.code === "invalid_request" && e.message === message,
      JSON.stringify(input),
    )
  }
  for (const input of [{ kind: 1, prompt: "p" }, { kind: "k", prompt: "p", id: 5 }, { kind: "k", prompt: "p", data: [1] }]) {
    assert.throws(() => pending(input), { code: "invalid_request" }, JSON.stringify(input))
  }
})

test("authRequired: kind authorization, default prompt, url in output", () => {
  const r = authRequired("https://x.test/login")
  assert.equal(r.output, "Authorization required to continue\nhttps://x.test/login")
  assert.equal(r.isError, true)
  const req = r.metadata.pending
  assert.deepEqual(Object.keys(req).sort(), ["id", "kind", "prompt", "url"])
  assert.equal(req.kind, "authorization")
  assert.equal(req.prompt, "Authorization required to continue")
  assert.equal(req.url, "https://x.test/login")
  assert.match(req.id, ID)
  const custom = authRequired("https://x.test/l", "Sign in to GitHub")
  assert.equal(custom.output, "Sign in to GitHub\nhttps://x.test/l")
  assert.equal(custom.metadata.pending.prompt, "Sign in to GitHub")
})

test("pendingOf: returns the Request of a suspension, also after a JSON round trip", async () => {
  const r = pending({ id: "p1", kind: "approval", prompt: "ok?", data: { n: 2 } })
  assert.deepEqual(pendingOf(r), { id: "p1", kind: "approval", prompt: "ok?", data: { n: 2 } })
  assert.deepEqual(pendingOf(JSON.parse(JSON.stringify(r))), pendingOf(r))
  assert.deepEqual(pendingOf(authRequired("https://u")).url, "https://u")
  const toolkit = await createToolkit({
    extraTools: [defineTool({ name: "ask", run: () => pending({ id: "q1", kind: "question", prompt: "Which?" }) })],
  })
  const out = await toolkit.execute("ask", {})
  assert.deepEqual(out, {
    output: "Which?",
    isError: true,
    metadata: { pending: { id: "q1", kind: "question", prompt: "Which?" } },
  })
  assert.deepEqual(pendingOf(out), { id: "q1", kind: "question", prompt: "Which?" })
})

test("pendingOf: undefined for everything that is not a suspension, and never throws", () => {
  const cyclic = { id: "a", kind: "k", prompt: "p" }
  cyclic.data = { self: cyclic }
  const cases = {
    undefined: undefined,
    null: null,
    string: "pending",
    number: 5,
    boolean: true,
    symbol: Symbol("s"),
    function: () => {},
    array: [],
    empty: {},
    ok: { output: "x", isError: false },
    failure: { output: "boom", isError: true },
    metadataNull: { output: "x", isError: true, metadata: null },
    metadataString: { output: "x", isError: true, metadata: "pending" },
    pendingNull: { metadata: { pending: null } },
    pendingString: { metadata: { pending: "x" } },
    pendingEmpty: { metadata: { pending: {} } },
    noPrompt: { metadata: { pending: { id: "a", kind: "k" } } },
    idNumber: { metadata: { pending: { id: 1, kind: "k", prompt: "p" } } },
    dataArray: { metadata: { pending: { id: "a", kind: "k", prompt: "p", data: [1] } } },
    cyclic: { metadata: { pending: cyclic } },
    throwingToJSON: { metadata: { pending: { id: "a", kind: "k", prompt: "p", toJSON() { throw new Error("j") } } } },
    proxy: new Proxy({}, { get() { throw new Error("trap") }, has() { throw new Error("trap") } }),
    proxyPending: { metadata: { pending: new Proxy({}, { ownKeys() { throw new Error("trap") } }) } },
    metadataGetter: { get metadata() { throw new Error("getter") } },
    pendingGetter: { metadata: { get pending() { throw new Error("getter") } } },
  }
  for (const [label, value] of Object.entries(cases)) {
    let got
    assert.doesNotThrow(() => { got = pendingOf(value) }, label)
    assert.equal(got, undefined, label)
  }
})

test("sanitize: every character outside [a-zA-Z0-9_-] becomes _", () => {
  assert.equal(sanitize("my server.v2"), "my_server_v2")
  assert.equal(sanitize("get weather"), "get_weather")
  assert.equal(sanitize("a.b.c"), "a_b_c")
  assert.equal(sanitize("héllo wörld"), "h_llo_w_rld")
  assert.equal(sanitize("a😀b"), "a_b")
  assert.equal(sanitize("日本"), "__")
  assert.equal(sanitize("already_clean-42"), "already_clean-42")
  assert.equal(sanitize(""), "")
})

test("string parameters given a non-string: a result or a normal error, never a wasm trap", {
}, () => {
  const calls = {
    "sanitize(5)": () => sanitize(5),
    "sanitize({})": () => sanitize({}),
    "authRequired(5)": () => authRequired(5),
    'authRequired("https://u", 5)': () => authRequired("https://u", 5),
  }
  for (const [label, call] of Object.entries(calls)) {
    try {
      call()
    } catch (e) {
      assert.ok(e instanceof Error, label)
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `${label} trapped: ${e.message}`)
    }
  }
})
