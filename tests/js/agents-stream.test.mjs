// An approval raised three levels down reaches the root as the inner tool's own request: a
// streamed client run (the root) calls agent `a` (agents.agent(...).asTool()), `a` delegates to
// `b` through `task`, and `b`'s `fetch_page` suspends. The root's `stream()` yields a `pending`
// event, and its `waitFor` is asked, with that request: the same id, kind, prompt and data,
// `data.path` naming the chain (root → a.1 → b.1) and `data.haltedCall` the inner call's tool
// and arguments. Approved, the parked run resumes (fetch_page runs once, nothing spawned twice);
// declined, fetch_page never runs; with no waitFor the run halts as JSON and runWithAnswer
// resumes it. The root streams from an SSE server, the agents call an OpenAI-style one, both on
// 127.0.0.1.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { agents, createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startSseStub, openaiStream, sse, plain } from "./support/sse-stub.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { assertPlainJson, clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const root = await startSseStub()
const team = await startOpenAIStub()
after(() => Promise.all([root.close(), team.close()]))

const URL_ = "https://example.org/wasm"
const toolTexts = (body) => body.messages.filter((m) => m.role === "tool").map((m) => String(m.content))

/** Model calls by agent model, and fetch_page runs by outcome. */
let seen
const reset = () => (seen = { "m-a": 0, "m-b": 0, asked: 0, ran: 0, spawnsB: 0 })
reset()

team.respond(({ body }) => {
  seen[body.model]++
  const tools = toolTexts(body)
  if (body.model === "m-a") {
    return tools.length === 0 ? openai.toolCalls([{ id: "a1", name: "task", args: { agent: "b", prompt: "read the page" } }]) : openai.text(`a: ${tools[0]}`)
  }
  return tools.length === 0 ? openai.toolCalls([{ id: "b1", name: "fetch_page", args: { url: URL_ } }]) : openai.text(`b: ${tools[0]}`)
})

const fetchPage = defineTool({
  name: "fetch_page",
  description: "reads a page (asks first)",
  inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  run: (args, ctx) => {
    if (ctx?.answer?.ok) return (seen.ran++, `page ${args.url}: components`)
    seen.asked++
    return pending({ kind: "approval", prompt: `fetch ${args.url}?`, data: { url: args.url } })
  },
})
const b = agents.agent("b", { does: "reads pages", model: "m-b", uses: { tools: [fetchPage] }, onSpawn: () => void seen.spawnsB++ })
const a = agents.agent("a", { does: "researches through b", model: "m-a", team: [b] })
const llm = { baseUrl: team.baseUrl, style: "openai", apiKey: "test-key" }

/** A fresh toolkit per test: the agent tool keeps its parked runs. */
const toolkit = () => createToolkit({ extraTools: [a.asTool({ llm })] })
const client = (extra = {}) => createClient({ baseUrl: root.openaiBaseUrl, style: "openai", model: "m-root", ...extra })
const callA = () => sse(openaiStream([], [{ id: "r1", name: "a", args: { prompt: "research wasm" } }]))
const finalText = (text) => sse(openaiStream([text]))

/** What every level must see: the inner tool's request, the chain in data.path, the halted call. */
function assertInnerRequest(request) {
  assert.match(request.id, /^pnd-[0-9a-f]{16}$/)
  assert.equal(request.kind, "approval")
  assert.equal(request.prompt, `fetch ${URL_}?`)
  assert.deepEqual(request.data, {
    url: URL_,
    path: ["root", "a.1", "b.1"],
    haltedCall: { handle: "root/a.1/b.1", tool: "fetch_page", args: { url: URL_ } },
  })
  assertPlainJson(request)
}

test("stream(): the pending event and waitFor carry the inner tool's request from three levels down; approved, it runs once", async () => {
  reset()
  root.script(callA(), finalText("root: done"))
  const asked = []
  const waitFor = async (request) => (asked.push(request), { id: request.id, ok: true })
  const events = []
  for await (const event of client({ waitFor }).stream("research wasm", { toolkit: await toolkit() })) events.push(event)

  assert.deepEqual(events.map((e) => e.type), ["tool_call", "pending", "tool_result", "text", "usage", "done"])
  assert.deepEqual([events[0].name, events[0].args], ["a", { prompt: "research wasm" }])
  assertInnerRequest(events[1].request)
  assert.equal(asked.length, 1)
  assert.deepEqual(asked[0], events[1].request, "waitFor is asked the very request the stream showed")
  assert.deepEqual([events[2].name, events[2].output, events[2].isError], ["a", `a: b: page ${URL_}: components`, false])
  assert.equal(events.at(-1).result.status, "done")
  // fetch_page asked once and ran once; b was spawned once (the resumed task reattached).
  assert.deepEqual([seen.asked, seen.ran, seen.spawnsB], [1, 1, 1])
})

test("stream(): declined at the root, the inner tool never runs and the root's model reads the refusal", async () => {
  reset()
  root.script(callA(), finalText("root: declined"))
  const waitFor = async (request) => ({ id: request.id, ok: false, reason: "not now" })
  const events = []
  for await (const event of client({ waitFor }).stream("research wasm", { toolkit: await toolkit() })) events.push(event)
  assertInnerRequest(events.find((e) => e.type === "pending").request)
  const result = events.find((e) => e.type === "tool_result")
  assert.deepEqual([result.output, result.isError], [`declined/expired: fetch ${URL_}?`, true])
  assert.deepEqual([seen.asked, seen.ran], [1, 0])
})

test("stream() with no waitFor halts as JSON with that request; runWithAnswer resumes the parked run, once", async () => {
  reset()
  root.script(callA())
  const kit = await toolkit()
  const events = []
  for await (const event of client().stream("research wasm", { toolkit: kit })) events.push(event)
  assert.deepEqual(events.map((e) => e.type), ["tool_call", "pending", "usage", "done"])
  const halted = events.at(-1).result
  assert.equal(halted.status, "pending")
  assertInnerRequest(halted.pending)
  assert.deepEqual(halted.pending, events[1].request)
  assertPlainJson(halted)
  const modelCalls = { a: seen["m-a"], b: seen["m-b"] }

  // The root's resumed run is not streamed: one plain completion.
  root.script(plain(200, openai.text("root: resumed").body))
  const answer = { id: halted.pending.id, ok: true }
  const done = await client().runWithAnswer({ toolkit: kit, history: halted.messages, pending: halted.pending, answer })
  assert.equal(done.status, "done", done.text)
  assert.equal(done.text, "root: resumed")
  assert.deepEqual(done.toolCalls.map((c) => [c.name, c.output, c.isError]), [["a", `a: b: page ${URL_}: components`, false]])
  assert.deepEqual([seen.asked, seen.ran, seen.spawnsB], [1, 1, 1])
  // Each halted turn replayed once (a model call each, plus each one's final answer): no more.
  assert.deepEqual({ a: seen["m-a"] - modelCalls.a, b: seen["m-b"] - modelCalls.b }, { a: 2, b: 2 })

  // The same answer again finds no parked run: an error result the root's model reads.
  root.script(plain(200, openai.text("root: again").body))
  const again = await client().runWithAnswer({ toolkit: kit, history: halted.messages, pending: halted.pending, answer })
  assert.deepEqual(again.toolCalls.map((c) => [c.output, c.isError]), [[`no run of agent "a" waits on request "${halted.pending.id}" (it ended, or ran in another process)`, true]])
  assert.deepEqual([seen.asked, seen.ran], [1, 1], "nothing ran again")
})
