// A2A inbound (SPEC §7B) on the built package: `toolkit.handler({client, a2a})` /
// `toolkit.serve` as an A2A agent, the task stores, `buildAgentCard`. The model behind
// `client` is a scripted local stub; the peers are the reference's wire (hand-made JSON-RPC),
// the official A2A SDK's CLIENT (@a2a-js/sdk, A2A 1.0 JSON-RPC), and this package's own
// outbound `agent({card})`. Everything runs on 127.0.0.1.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ClientFactory } from "@a2a-js/sdk/client"
import { Role, TaskState } from "@a2a-js/sdk"
import {
  agent,
  buildAgentCard,
  createClient,
  createToolkit,
  FileTaskStore,
  InMemoryTaskStore,
  resolveStore,
} from "../../pkg/node.mjs"
import { openai, startOpenAIStub } from "./support/stub-server.mjs"
import { assertCode, thrown } from "./support/helpers.mjs"

const SKILLS = [
  { name: "hello-world", description: "Says hello", content: "Say hello." },
  { name: "transcribe", description: "Transcribes a video", content: "Transcribe." },
]

/** The last user message's text of a Chat Completions request body. */
function lastUserText(body) {
  const user = body.messages.filter((m) => m.role === "user").at(-1)
  return typeof user?.content === "string" ? user.content : (user?.content ?? []).map((p) => p.text ?? "").join("")
}

/**
 * The model: "fail …" is an HTTP 500 (the run throws), "ask …" calls the `question` tool
 * (the run suspends without a waitFor), anything else answers `ANSWER: <text>`.
 */
function model(request) {
  const text = lastUserText(request.body)
  if (text.startsWith("fail")) return { status: 500, body: "model down" }
  const asked = request.body.messages.some((m) => m.role === "tool")
  if (text.startsWith("ask") && !asked) {
    return openai.toolCalls([{ id: "c1", name: "question", args: { questions: [{ question: "Pick a color?", options: ["red", "green"] }] } }])
  }
  return openai.text(`ANSWER: ${text}`)
}

let stub
let client
before(async () => {
  stub = await startOpenAIStub()
  stub.respond(model)
  client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "sk-secret-key", retries: 0 })
})
after(() => stub.close())

const tempDirs = []
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "a2a-inbound-"))
  tempDirs.push(dir)
  return dir
}
after(() => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** One JSON-RPC 2.0 call in the reference's wire (no A2A-Version header). */
async function rpc(endpoint, method, params, headers = {}) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: "req-1", method, params }),
  })
  assert.equal(res.status, 200)
  return res.json()
}

const textMessage = (text) => ({ message: { role: "user", parts: [{ kind: "text", text }] } })
const ENDED = new Set(["completed", "failed", "canceled", "input-required"])

/** Polls `GetTask` until the task ends (bounded by the test timeout, not by a guess). */
async function untilEnded(endpoint, id) {
  for (;;) {
    const env = await rpc(endpoint, "GetTask", { id })
    if (ENDED.has(env.result?.status?.state)) return env.result
    assert.ok(env.result, `GetTask answered ${JSON.stringify(env)}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** A hand-made request to a handler (no socket). */
function call(handler, body, { method = "POST", path = "/", headers = {} } = {}) {
  const init = { method, headers: { "content-type": "application/json", ...headers } }
  if (method === "POST") init.body = typeof body === "string" ? body : JSON.stringify(body)
  return handler(new Request(`http://127.0.0.1:9${path}`, init))
}

describe("the reference's a2a inbound behaviours", () => {
  test("round trip: serve → our outbound agent({card}) → client.run → artifact", async () => {
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    const srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "video-desk", skills: ["hello-world"] } })
    const caller = await createToolkit({ builtins: false, agents: [agent({ card: `${srv.url}/.well-known/agent-card.json`, pollEvery: 10 })] })
    try {
      const tool = caller.get("video-desk_hello-world")
      assert.ok(tool, `the served skill is a tool: ${caller.tools().map((t) => t.name)}`)
      assert.equal(tool.source, "a2a")
      assert.equal(caller.get("video-desk_transcribe"), undefined, "a2a.skills filters the card")
      const r = await caller.execute("video-desk_hello-world", { task: "do it" })
      assert.equal(r.isError, false, r.output)
      assert.equal(r.output, "ANSWER: do it")
      assert.equal(r.metadata.state, "completed")
    } finally {
      await caller.close()
      await srv.stop()
    }
  })

  test("the card advertises skills (not raw tools), streaming false, url the JSON-RPC endpoint", async () => {
    const tk = await createToolkit({ skills: SKILLS }) // built-ins on: they must stay off the card
    const srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "video-desk" } })
    try {
      const res = await fetch(`${srv.url}/.well-known/agent-card.json`)
      assert.equal(res.headers.get("content-type"), "application/json")
      const card = await res.json()
      assert.deepEqual(card.skills, [
        { id: "hello-world", name: "hello-world", description: "Says hello" },
        { id: "transcribe", name: "transcribe", description: "Transcribes a video" },
      ])
      assert.ok(tk.get("bash") || tk.get("read"), "the toolkit does have built-in tools")
      assert.equal(card.capabilities.streaming, false)
      assert.equal(card.capabilities.pushNotifications, false)
      assert.equal(card.name, "video-desk")
      assert.equal(card.description, "")
      assert.equal(card.version, "0.1.0")
      assert.equal(card.protocolVersion, "0.3.0")
      assert.equal(card.url, `${srv.url}/`)
      assert.deepEqual(card.defaultInputModes, ["text"])
      assert.deepEqual(card.defaultOutputModes, ["text"])
      assert.deepEqual(card.supportedInterfaces, [{ url: `${srv.url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }])
      assert.equal("provider" in card, false, "provider only when configured")
    } finally {
      await srv.stop()
    }
  })

  test("the profile is opt-in: no a2a, no card (404)", async () => {
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    const srv = await tk.serve("127.0.0.1:0", { client })
    try {
      assert.equal((await fetch(`${srv.url}/.well-known/agent-card.json`)).status, 404)
      assert.equal((await fetch(`${srv.url}/`, { method: "POST", body: "{}" })).status, 404)
    } finally {
      await srv.stop()
    }
  })

  test("a failing run is a failed task; the server keeps serving; onTask sees it", async () => {
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    const events = []
    const srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "video-desk" }, onTask: (e) => void events.push(e) })
    const endpoint = `${srv.url}/`
    try {
      const sent = await rpc(endpoint, "SendMessage", textMessage("fail now"))
      assert.equal(sent.result.status.state, "submitted", "SendMessage answers submitted at once")
      assert.match(sent.result.id, /^[0-9a-f-]{36}$/)
      const task = await untilEnded(endpoint, sent.result.id)
      assert.equal(task.status.state, "failed")
      assert.equal(task.status.message.role, "agent")
      assert.match(task.status.message.parts[0].text, /500/)
      assert.doesNotMatch(JSON.stringify(task), /sk-secret-key/, "no key in the task")
      assert.equal((await fetch(`${srv.url}/.well-known/agent-card.json`)).status, 200)
      const again = await untilEnded(endpoint, (await rpc(endpoint, "SendMessage", textMessage("fine"))).result.id)
      assert.equal(again.status.state, "completed")
      const failed = events.find((e) => e.id === sent.result.id)
      assert.equal(failed.state, "failed")
      assert.equal(failed.task.status.state, "failed")
      assert.equal(failed.result, undefined)
      const done = events.find((e) => e.id === again.id)
      assert.equal(done.result.text, "ANSWER: fine", "onTask carries the RunResult")
    } finally {
      await srv.stop()
    }
  })

  test("a suspended run is input-required with the prompt, never a false completed", async () => {
    const tk = await createToolkit({}) // built-ins on: `question` exists
    const events = []
    const srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "ask-desk" }, onTask: (e) => void events.push(e) })
    const endpoint = `${srv.url}/`
    try {
      const sent = await rpc(endpoint, "SendMessage", textMessage("ask me"))
      const task = await untilEnded(endpoint, sent.result.id)
      assert.equal(task.status.state, "input-required")
      assert.match(task.status.message.parts[0].text, /Pick a color\? \(options: red, green\)/)
      assert.ok(!task.artifacts || task.artifacts.length === 0, "no artifact posing as an answer")
      assert.equal(events.at(-1).state, "input-required")
    } finally {
      await srv.stop()
    }
  })

  test("a host TaskStore gets every read and write", async () => {
    class StubStore {
      saved = []
      gotten = []
      map = new Map()
      async save(t) {
        this.saved.push(t.status.state)
        this.map.set(t.id, t)
      }
      async get(id) {
        this.gotten.push(id)
        return this.map.get(id)
      }
    }
    const store = new StubStore()
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    const srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "video-desk", store } })
    const endpoint = `${srv.url}/`
    try {
      const sent = await rpc(endpoint, "SendMessage", textMessage("go"))
      const task = await untilEnded(endpoint, sent.result.id)
      assert.equal(task.status.state, "completed")
      assert.deepEqual(task.artifacts[0].parts, [{ kind: "text", text: "ANSWER: go" }])
      assert.deepEqual(store.saved, ["submitted", "working", "completed"])
      assert.ok(store.gotten.length >= 1)
      const miss = await rpc(endpoint, "GetTask", { id: "nope" })
      assert.deepEqual(miss.error, { code: -32001, message: "Task not found: nope" })
      assert.equal(miss.id, "req-1")
      const bad = await rpc(endpoint, "Frobnicate", {})
      assert.deepEqual(bad.error, { code: -32601, message: "Method not found: Frobnicate" })
    } finally {
      await srv.stop()
    }
  })

  test("FileTaskStore round-trips on disk; resolveStore maps selectors", async () => {
    const dir = tempDir()
    const store = new FileTaskStore(dir)
    await store.save({ id: "abc-123", status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "hi" }] }] })
    const got = await store.get("abc-123")
    assert.equal(got.status.state, "completed")
    assert.equal(got.artifacts[0].parts[0].text, "hi")
    assert.equal(await store.get("missing"), undefined)
    assert.ok(existsSync(join(dir, "abc-123.json")), "one JSON file per task id")
    assert.deepEqual(readdirSync(dir), ["abc-123.json"], "no temporary file left behind")
    assert.equal(await store.get("../abc-123"), undefined, "an id never leaves the directory")
    assert.ok(resolveStore() instanceof InMemoryTaskStore)
    assert.ok(resolveStore("memory") instanceof InMemoryTaskStore)
    assert.ok(resolveStore(`file:${dir}`) instanceof FileTaskStore)
    assert.equal(resolveStore(store), store, "an object is used as it is")
    const unknown = assertCode(thrown(() => resolveStore("redis:whatever")), "invalid_options")
    assert.match(unknown.message, /Unknown A2A store/)
    assertCode(thrown(() => resolveStore(42)), "invalid_options")
    assertCode(thrown(() => new FileTaskStore("")), "invalid_options")
  })

  test("buildAgentCard filters to a2a.skills and defaults as the reference", () => {
    const skills = [
      { name: "alpha", description: "A" },
      { name: "beta", description: "B" },
    ]
    assert.deepEqual(buildAgentCard({ name: "n", skills: ["alpha"] }, skills, "http://h/").skills.map((s) => s.id), ["alpha"])
    const all = buildAgentCard({}, skills, "http://h/")
    assert.deepEqual(all.skills.map((s) => s.id), ["alpha", "beta"])
    assert.equal(all.name, "toolnexus-agent")
    assert.equal(all.capabilities.streaming, false)
    assert.equal(all.protocolVersion, "0.3.0")
    const provider = { organization: "ACME", url: "https://acme.test" }
    assert.deepEqual(buildAgentCard({ provider }, [], "http://h/").provider, provider)
  })

  test("a config's top-level a2a block is the profile when serve has none", async () => {
    const tk = await createToolkit({ mcpConfig: { a2a: { name: "from-config" } }, skills: SKILLS, builtins: false })
    const srv = await tk.serve("127.0.0.1:0", { client })
    try {
      const card = await (await fetch(`${srv.url}/.well-known/agent-card.json`)).json()
      assert.equal(card.name, "from-config")
      const inline = tk.handler({ client, a2a: { name: "inline" } })
      const res = await call(inline, undefined, { method: "GET", path: "/.well-known/agent-card.json" })
      assert.equal((await res.json()).name, "inline", "the handler's own a2a wins")
      const proxied = tk.handler({ client, a2a: { url: "https://agents.example/desk/" } })
      const behind = await (await call(proxied, undefined, { method: "GET", path: "/.well-known/agent-card.json" })).json()
      assert.equal(behind.url, "https://agents.example/desk/", "a2a.url names the endpoint behind a proxy")
      assert.equal(behind.supportedInterfaces[0].url, "https://agents.example/desk/")
    } finally {
      await srv.stop()
    }
  })
})

describe("the official A2A SDK client (@a2a-js/sdk) against toolkit.serve", () => {
  const partText = (t) => ({ content: { $case: "text", value: t }, metadata: undefined, filename: "", mediaType: "text/plain" })
  const userMessage = (t) => ({ messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [partText(t)], extensions: [], referenceTaskIds: [] })
  const texts = (parts) => parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")
  let srv
  let sdk
  before(async () => {
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    srv = await tk.serve("127.0.0.1:0", { client, a2a: { name: "video-desk", description: "Watches videos" } })
    sdk = await new ClientFactory().createFromUrl(srv.url)
  })
  after(() => srv.stop())

  test("the card resolves and the SDK picks our JSON-RPC 1.0 interface", async () => {
    const card = await sdk.getAgentCard()
    assert.equal(card.name, "video-desk")
    assert.equal(card.description, "Watches videos")
    assert.deepEqual(card.skills.map((s) => s.id), ["hello-world", "transcribe"])
    assert.equal(sdk.protocolVersion, "1.0", "the 1.0 interface of supportedInterfaces, not the legacy url")
  })

  test("SendMessage (blocking, the 1.0 default) answers the completed task with the model's answer", async () => {
    const task = await sdk.sendMessage({ message: userMessage("summarize the talk") })
    assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED)
    assert.equal(texts(task.artifacts[0].parts), "ANSWER: summarize the talk")
    const fetched = await sdk.getTask({ id: task.id })
    assert.equal(fetched.id, task.id)
    assert.equal(fetched.status.state, TaskState.TASK_STATE_COMPLETED)
    assert.equal(texts(fetched.artifacts[0].parts), "ANSWER: summarize the talk")
  })

  test("returnImmediately answers the submitted task; GetTask follows it to completed", async () => {
    const task = await sdk.sendMessage({ message: userMessage("later"), configuration: { returnImmediately: true, acceptedOutputModes: [] } })
    assert.equal(task.status.state, TaskState.TASK_STATE_SUBMITTED)
    let now = task
    while (now.status.state !== TaskState.TASK_STATE_COMPLETED) {
      assert.ok([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(now.status.state), `state ${now.status.state}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
      now = await sdk.getTask({ id: task.id })
    }
    assert.equal(texts(now.artifacts[0].parts), "ANSWER: later")
  })

  test("messages of one contextId are one conversation (client.ask keyed by it)", async () => {
    const contextId = crypto.randomUUID()
    const first = await sdk.sendMessage({ message: { ...userMessage("my name is Ada"), contextId } })
    assert.equal(first.contextId, contextId)
    await sdk.sendMessage({ message: { ...userMessage("what is my name?"), contextId } })
    const last = stub.requests.at(-1).body.messages
    assert.ok(last.some((m) => m.role === "assistant" && m.content === "ANSWER: my name is Ada"), "the second run saw the first turn")
    await sdk.sendMessage({ message: userMessage("no context") })
    assert.equal(stub.requests.at(-1).body.messages.filter((m) => m.role === "user").length, 1, "no contextId, no memory")
  })

  test("a failing run is a failed task with the reason as its status message", async () => {
    const task = await sdk.sendMessage({ message: userMessage("fail please") })
    assert.equal(task.status.state, TaskState.TASK_STATE_FAILED)
    assert.equal(task.status.message.role, Role.ROLE_AGENT)
    assert.match(texts(task.status.message.parts), /500/)
    assert.doesNotMatch(texts(task.status.message.parts), /sk-secret-key/)
  })

  test("an unknown task is the SDK's task-not-found error (-32001)", async () => {
    await assert.rejects(sdk.getTask({ id: "no-such-task" }), (e) => {
      assert.match(`${e.message} ${e.code ?? ""}`, /Task not found: no-such-task|-32001/)
      return true
    })
  })

  test("two handlers over one FileTaskStore answer for each other's tasks", async () => {
    const dir = tempDir()
    const tk = await createToolkit({ skills: SKILLS, builtins: false })
    const first = await tk.serve("127.0.0.1:0", { client, a2a: { name: "desk", store: `file:${dir}` } })
    const second = await tk.serve("127.0.0.1:0", { client, a2a: { name: "desk", store: new FileTaskStore(dir) } })
    try {
      const one = await new ClientFactory().createFromUrl(first.url)
      const two = await new ClientFactory().createFromUrl(second.url)
      const task = await one.sendMessage({ message: userMessage("shared") })
      assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED)
      const seen = await two.getTask({ id: task.id })
      assert.equal(seen.status.state, TaskState.TASK_STATE_COMPLETED)
      assert.equal(texts(seen.artifacts[0].parts), "ANSWER: shared")
      assert.deepEqual(readdirSync(dir), [`${task.id}.json`])
      const early = await two.sendMessage({ message: userMessage("from two"), configuration: { returnImmediately: true, acceptedOutputModes: [] } })
      let state = (await one.getTask({ id: early.id })).status.state
      while (state !== TaskState.TASK_STATE_COMPLETED) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        state = (await one.getTask({ id: early.id })).status.state
      }
    } finally {
      await first.stop()
      await second.stop()
    }
  })
})

describe("bad input, hand-made requests to the handler", () => {
  let handler
  before(async () => {
    const tk = await createToolkit({ skills: SKILLS, builtins: false, extraTools: [] })
    handler = tk.handler({ client, a2a: { name: "desk" }, mcp: {} })
  })
  const error = async (res) => {
    assert.equal(res.status, 200)
    return (await res.json()).error
  }

  test("a body that is not JSON is -32700", async () => {
    assert.deepEqual(await error(await call(handler, "{nope")), { code: -32700, message: "Parse error" })
  })

  test("an unknown method is -32601; an A2A 0.3 name points to the 1.0 method", async () => {
    assert.deepEqual(await error(await call(handler, { jsonrpc: "2.0", id: 1, method: "Frobnicate" })), { code: -32601, message: "Method not found: Frobnicate" })
    const old = await error(await call(handler, { jsonrpc: "2.0", id: 2, method: "message/send", params: textMessage("x") }))
    assert.equal(old.code, -32601)
    assert.match(old.message, /^Method not found: message\/send .*SendMessage/)
    assert.match((await error(await call(handler, { jsonrpc: "2.0", id: 3, method: "tasks/get" }))).message, /GetTask/)
  })

  test("an unknown task is -32001, in both dialects", async () => {
    assert.deepEqual(await error(await call(handler, { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } })), { code: -32001, message: "Task not found: x" })
    const v1 = await call(handler, { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }, { headers: { "a2a-version": "1.0" } })
    assert.equal((await error(v1)).code, -32001)
  })

  test("a batch, a missing message, non-text parts and a missing id are precise errors", async () => {
    assert.equal((await error(await call(handler, [{ jsonrpc: "2.0", id: 1, method: "GetTask" }]))).code, -32600)
    assert.equal((await error(await call(handler, { jsonrpc: "2.0", id: 1 }))).code, -32600)
    const noMessage = await error(await call(handler, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }))
    assert.equal(noMessage.code, -32602)
    assert.match(noMessage.message, /params\.message/)
    const data = { message: { role: "user", parts: [{ kind: "data", data: { a: 1 } }] } }
    const notText = await error(await call(handler, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: data }))
    assert.equal(notText.code, -32602)
    assert.match(notText.message, /text/)
    assert.equal((await error(await call(handler, { jsonrpc: "2.0", id: 1, method: "GetTask", params: {} }))).code, -32602)
  })

  test("both profiles on one handler: the card, POST / and POST /mcp; anything else 404", async () => {
    assert.equal((await call(handler, undefined, { method: "GET", path: "/.well-known/agent-card.json" })).status, 200)
    const list = await call(handler, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { path: "/mcp", headers: { accept: "application/json, text/event-stream" } })
    assert.equal(list.status, 200)
    assert.ok(Array.isArray((await list.json()).result.tools))
    assert.equal((await call(handler, undefined, { method: "GET", path: "/elsewhere" })).status, 404)
    assert.equal((await call(handler, { jsonrpc: "2.0", id: 1, method: "GetTask" }, { path: "/tasks" })).status, 404)
  })

  test("options: a2a without a client, a bad onTask, a bad store are invalid_options", async () => {
    const tk = await createToolkit({ builtins: false })
    assertCode(thrown(() => tk.handler({ a2a: {} })), "invalid_options")
    assertCode(thrown(() => tk.handler({ client, a2a: {}, onTask: 5 })), "invalid_options")
    assertCode(thrown(() => tk.handler({ client, a2a: { store: "redis:x" } })), "invalid_options")
    assertCode(thrown(() => tk.handler({ client, a2a: "yes" })), "invalid_options")
  })
})
