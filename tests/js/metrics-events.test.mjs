// Observability against a real local server (SPEC §8): onMetric receives one llm event per model
// call, one tool event per tool call (a suspension is isError false, pending true) and one run
// event per run, in the documented shapes; client.metrics() holds the matching series, its sums
// printed as String(number) prints them; a throwing onMetric never breaks a run.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startSseStub, sse, plain, streamOf } from "./support/sse-stub.mjs"
import { openai } from "./support/stub-server.mjs"
import { clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

const add = defineTool({
  name: "add",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  run: ({ a, b }) => String(a + b),
})
const ask = defineTool({ name: "ask", run: (_, ctx) => (ctx.answer ? "yes" : pending({ id: "q1", kind: "question", prompt: "Sure?" })) })
const toolkit = await createToolkit({ extraTools: [add, ask] })
const client = (events, extra = {}) => createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "gpt-x", retryBaseMs: 1, onMetric: (e) => events.push(e), ...extra })
const addTurns = () => [openai.toolCalls([{ id: "c1", name: "add", args: { a: 1, b: 2 } }], openai.usage(3, 2)), openai.text("3", openai.usage(10, 1))]
const keys = (e) => Object.keys(e).sort()
const line = (text, prefix) => text.split("\n").find((l) => l.startsWith(prefix))

test("before any run, metrics() has only the HELP and TYPE lines", () => {
  const text = client([]).metrics()
  const lines = text.split("\n")
  assert.equal(lines.pop(), "", "ends with a newline")
  assert.equal(lines.length, 12)
  assert.ok(lines.every((l) => /^# (HELP|TYPE) toolnexus_/.test(l)), text)
})

test("a run emits llm, tool, llm, run events in the documented shapes", async () => {
  const events = []
  stub.script(...addTurns())
  await client(events).run("1+2", { toolkit })
  assert.deepEqual(events.map((e) => e.event), ["llm", "tool", "llm", "run"])
  const [llm, tool, , run] = events
  assert.deepEqual(keys(llm), ["completionTokens", "event", "model", "ms", "promptTokens", "status"])
  assert.deepEqual({ ...llm, ms: 0 }, { event: "llm", model: "gpt-x", status: "ok", ms: 0, promptTokens: 3, completionTokens: 2 })
  assert.deepEqual(keys(tool), ["event", "isError", "ms", "pending", "source", "tool"])
  assert.deepEqual({ ...tool, ms: 0 }, { event: "tool", tool: "add", source: "native", isError: false, pending: false, ms: 0 })
  assert.deepEqual(keys(run), ["event", "model", "ms", "toolCalls", "totalTokens", "turns"])
  assert.deepEqual({ ...run, ms: 0 }, { event: "run", model: "gpt-x", turns: 2, toolCalls: 1, totalTokens: 16, ms: 0 })
  for (const e of events) assert.ok(Number.isFinite(e.ms) && e.ms >= 0, JSON.stringify(e))
})

test("metrics() after a run holds the series those events make", async () => {
  const events = []
  stub.script(...addTurns())
  const c = client(events)
  await c.run("1+2", { toolkit })
  const text = c.metrics()
  assert.equal(line(text, "toolnexus_llm_requests_total{"), 'toolnexus_llm_requests_total{model="gpt-x",status="ok"} 2')
  assert.equal(line(text, 'toolnexus_llm_tokens_total{type="prompt"}'), 'toolnexus_llm_tokens_total{type="prompt"} 13')
  assert.equal(line(text, 'toolnexus_llm_tokens_total{type="completion"}'), 'toolnexus_llm_tokens_total{type="completion"} 3')
  assert.equal(line(text, "toolnexus_tool_calls_total{"), 'toolnexus_tool_calls_total{tool="add",source="native",is_error="false",pending="false"} 1')
  assert.equal(line(text, "toolnexus_llm_request_duration_seconds_count"), 'toolnexus_llm_request_duration_seconds_count{model="gpt-x"} 2')
  const llmSum = events.filter((e) => e.event === "llm").reduce((s, e) => s + e.ms / 1000, 0)
  assert.equal(line(text, "toolnexus_llm_request_duration_seconds_sum"), `toolnexus_llm_request_duration_seconds_sum{model="gpt-x"} ${String(llmSum)}`)
  const toolSum = events.filter((e) => e.event === "tool").reduce((s, e) => s + e.ms / 1000, 0)
  assert.equal(line(text, "toolnexus_tool_duration_seconds_sum"), `toolnexus_tool_duration_seconds_sum{tool="add"} ${String(toolSum)}`)
  assert.equal(line(text, "toolnexus_run_errors_total{"), undefined)
  assert.ok(text.endsWith("# TYPE toolnexus_run_errors_total counter\n"))
  await c.run("again", { toolkit }).catch(() => {})
  assert.match(c.metrics(), /status="error"\} 1\n/, "metrics are cumulative per client")
})

test("a suspension is a tool event with isError false and pending true", async () => {
  const events = []
  stub.script(openai.toolCalls([{ id: "c1", name: "ask" }]))
  const c = client(events)
  const r = await c.run("go", { toolkit })
  assert.equal(r.status, "pending")
  const tool = events.find((e) => e.event === "tool")
  assert.deepEqual({ ...tool, ms: 0 }, { event: "tool", tool: "ask", source: "native", isError: false, pending: true, ms: 0 })
  assert.match(c.metrics(), /toolnexus_tool_calls_total\{tool="ask",source="native",is_error="false",pending="true"\} 1\n/)
})

test("a failed run: llm status error, run with its error, and run_errors_total", async () => {
  const events = []
  stub.script(plain(400, "bad request"))
  const c = client(events)
  const error = await rejection(c.run("hi", { toolkit }))
  assert.deepEqual(events.map((e) => [e.event, e.status ?? e.error]), [["llm", "error"], ["run", error.message]])
  assert.deepEqual({ ...events[0], ms: 0 }, { event: "llm", model: "gpt-x", status: "error", ms: 0, promptTokens: 0, completionTokens: 0 })
  assert.equal(line(c.metrics(), "toolnexus_run_errors_total{"), 'toolnexus_run_errors_total{model="gpt-x"} 1')
})

test("retries are inside one llm event", async () => {
  const events = []
  stub.script(plain(503, "busy"), plain(429, "slow"), openai.text("ok"))
  const c = client(events)
  await c.run("hi", { toolkit })
  assert.deepEqual(events.map((e) => e.event), ["llm", "run"])
  assert.equal(stub.requests.length, 3)
  assert.equal(line(c.metrics(), "toolnexus_llm_requests_total{"), 'toolnexus_llm_requests_total{model="gpt-x",status="ok"} 1')
})

test("a streamed run emits the same events", async () => {
  const events = []
  stub.script(sse(streamOf("openai", [], [{ id: "c1", name: "add", args: { a: 1, b: 2 } }], [3, 2])), sse(streamOf("openai", ["3"], [], [10, 1]), { cut: "bytes" }))
  for await (const e of client(events).stream("1+2", { toolkit })) void e
  assert.deepEqual(events.map((e) => e.event), ["llm", "tool", "llm", "run"])
  assert.deepEqual([events[0].promptTokens, events[0].completionTokens, events[3].totalTokens], [3, 2, 16])
})

test("a throwing onMetric never breaks a run, and metrics() still counts", async () => {
  stub.script(...addTurns())
  const warn = console.warn
  const warnings = []
  console.warn = (...args) => warnings.push(args.join(" "))
  try {
    const c = createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "gpt-x", onMetric: () => { throw new Error("sink down") } })
    const r = await c.run("1+2", { toolkit })
    assert.equal(r.text, "3")
    assert.match(c.metrics(), /toolnexus_llm_requests_total\{model="gpt-x",status="ok"\} 2\n/)
  } finally {
    console.warn = warn
  }
  assert.ok(warnings.some((w) => w.includes("onMetric threw: sink down")), warnings.join("\n"))
})
