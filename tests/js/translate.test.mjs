// client.translate (SPEC §11) against real local stubs, every test of the reference port's
// js/test/translate.test.ts ported (its Anthropic translation and its OpenAI passthrough), then
// what this port adds: bad input refused as `invalid_request` before anything is sent, shaping
// and retries shared with the loop, the `llm` metric, aborts, secrets kept out of errors, the
// pure helpers and Client.toolCallsJSON.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import {
  Client,
  createClient,
  createToolkit,
  defineTool,
  isToolnexusError,
  openAIMessagesToAnthropic,
  openAIToolsToAnthropic,
  openAIToolChoiceToAnthropic,
  finishReasonFor,
  argsObject,
  argsString,
  toolCallsOf,
  contentText,
  hasSystemMessage,
} from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { startAnthropicStub, startOpenAIStub, reply } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const anthropicStub = await startAnthropicStub()
const openaiStub = await startOpenAIStub()
after(() => Promise.all([anthropicStub.close(), openaiStub.close()]))

/** A client of `style` against its stub. */
const clientOf = (style, extra = {}) =>
  createClient({
    baseUrl: style === "anthropic" ? anthropicStub.baseUrl : openaiStub.baseUrl,
    style,
    model: "stub",
    apiKey: "k",
    ...extra,
  })
const anthropicClient = (extra) => clientOf("anthropic", extra)

/** The OpenAI `tools` array a client sends, verbatim. */
const openAITools = () => [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Get the weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
]

const sentBody = (stub, n = 0) => stub.requests[n].body
const blocksOf = (body) => body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))

// ---- Anthropic upstream: the real translation (the reference's tests) ----

test("translate: an Anthropic tool_use turn comes back as an OpenAI tool call", async () => {
  anthropicStub.script(
    reply(200, {
      content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Chennai" } }],
      stop_reason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  )
  const res = await anthropicClient().translate({
    messages: [{ role: "user", content: "weather in Chennai?" }],
    tools: openAITools(),
  })
  assert.equal(res.finishReason, "tool_calls")
  assert.equal(res.toolCalls.length, 1)
  assert.equal(res.toolCalls[0].id, "toolu_1")
  assert.equal(res.toolCalls[0].name, "get_weather")
  assert.equal(typeof res.toolCalls[0].arguments, "string")
  assert.equal(JSON.parse(res.toolCalls[0].arguments).city, "Chennai")
  assert.ok(res.usage.totalTokens > 0, "usage not reported")
  assert.equal(res.usage.totalTokens, 15)
  assert.equal(res.model, "stub")
  assert.equal(res.raw.stop_reason, "tool_use")
  const sent = JSON.stringify(sentBody(anthropicStub))
  assert.match(sent, /input_schema/)
  assert.match(sent, /get_weather/)
  assert.doesNotMatch(sent, /"parameters"/, "OpenAI-shaped 'parameters' leaked upstream")
  assert.equal(anthropicStub.requests.length, 1)
})

test("translate: a multi-turn tool exchange survives (the flattening bug)", async () => {
  anthropicStub.script(
    reply(200, {
      content: [{ type: "text", text: "It is 31C in Chennai." }],
      stop_reason: "end_turn",
      usage: { input_tokens: 20, output_tokens: 8 },
    }),
  )
  const res = await anthropicClient().translate({
    tools: openAITools(),
    messages: [
      { role: "system", content: "Be terse." },
      { role: "user", content: "weather in Chennai?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_abc", type: "function", function: { name: "get_weather", arguments: '{"city":"Chennai"}' } }],
      },
      { role: "tool", tool_call_id: "call_abc", content: "31C, clear" },
    ],
  })
  assert.equal(res.finishReason, "stop")
  assert.equal(res.text, "It is 31C in Chennai.")
  const sent = sentBody(anthropicStub)
  assert.equal(sent.system, "Be terse.", "system not hoisted out of messages")
  const raw = JSON.stringify(sent)
  for (const want of ["tool_use", "tool_result", "call_abc", "31C, clear"]) {
    assert.ok(raw.includes(want), `multi-turn structure lost ${want}: ${raw}`)
  }
  const use = blocksOf(sent).find((b) => b.type === "tool_use")
  assert.ok(use, "no tool_use block reached the provider")
  assert.equal(use.input.city, "Chennai", "tool_use input not re-parsed to an object")
})

test("translate: three consecutive tool results merge into ONE user turn", async () => {
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "done" }], stop_reason: "end_turn" }))
  await anthropicClient().translate({
    messages: [
      { role: "user", content: "do three things" },
      {
        role: "assistant",
        tool_calls: [
          { id: "a", function: { name: "f", arguments: "{}" } },
          { id: "b", function: { name: "f", arguments: "{}" } },
          { id: "c", function: { name: "f", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "ra" },
      { role: "tool", tool_call_id: "b", content: "rb" },
      { role: "tool", tool_call_id: "c", content: "rc" },
    ],
  })
  const msgs = sentBody(anthropicStub).messages
  const resultTurns = msgs.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"))
  assert.equal(resultTurns.length, 1, "tool results spread over more than one user turn")
  assert.equal(resultTurns[0].role, "user")
  assert.equal(resultTurns[0].content.filter((b) => b.type === "tool_result").length, 3)
  assert.equal(blocksOf(sentBody(anthropicStub)).filter((b) => b.type === "tool_use").length, 3)
})

test("translate: parallel tool calls are all returned, in provider order", async () => {
  anthropicStub.script(
    reply(200, {
      content: [
        { type: "text", text: "calling three" },
        { type: "tool_use", id: "t1", name: "alpha", input: { n: 1 } },
        { type: "tool_use", id: "t2", name: "beta", input: { n: 2 } },
        { type: "tool_use", id: "t3", name: "gamma", input: { n: 3 } },
      ],
      stop_reason: "tool_use",
    }),
  )
  const res = await anthropicClient().translate({ messages: [{ role: "user", content: "go" }], tools: openAITools() })
  assert.equal(res.toolCalls.length, 3)
  assert.deepEqual(res.toolCalls.map((t) => t.name), ["alpha", "beta", "gamma"])
  assert.deepEqual(res.toolCalls.map((t) => t.arguments), ['{"n":1}', '{"n":2}', '{"n":3}'])
  assert.equal(res.text, "calling three", "text alongside tool calls was lost")
  assert.equal(res.finishReason, "tool_calls")
})

test("translate: executes nothing and keeps no state across calls", async () => {
  let ran = 0
  const toolUse = () =>
    reply(200, { content: [{ type: "tool_use", id: "t1", name: "danger", input: {} }], stop_reason: "tool_use" })
  anthropicStub.script(toolUse(), toolUse(), toolUse())
  const c = anthropicClient()
  const tk = await createToolkit({
    builtins: false,
    extraTools: [defineTool({ name: "danger", description: "must not run", run: async () => { ran++; return "RAN" } })],
  })
  for (let i = 0; i < 3; i++) {
    const res = await c.translate({ messages: [{ role: "user", content: "go" }], toolkit: tk })
    assert.equal(res.toolCalls.length, 1)
    assert.equal(res.toolCalls[0].name, "danger")
  }
  assert.equal(ran, 0, "translate EXECUTED a tool: it must never execute anything")
  assert.equal(anthropicStub.requests.length, 3)
  for (const r of anthropicStub.requests) assert.equal(r.body.messages.length, 1, "state leaked between translate calls")
  await tk.close()
})

test("translate: a toolkit is declared natively but never executed", async () => {
  let ran = false
  anthropicStub.script(
    reply(200, { content: [{ type: "tool_use", id: "tu_9", name: "my_native_tool", input: { x: 1 } }], stop_reason: "tool_use" }),
  )
  const tk = await createToolkit({
    builtins: false,
    extraTools: [
      defineTool({
        name: "my_native_tool",
        description: "an ordinary executable tool",
        inputSchema: { type: "object", properties: { x: { type: "number" } } },
        run: async () => {
          ran = true
          return "SHOULD NOT RUN"
        },
      }),
    ],
  })
  const res = await anthropicClient().translate({ messages: [{ role: "user", content: "use the tool" }], toolkit: tk })
  assert.equal(ran, false, "translate executed a toolkit tool")
  assert.equal(res.toolCalls.length, 1)
  assert.equal(res.toolCalls[0].name, "my_native_tool")
  assert.equal(res.toolCalls[0].id, "tu_9")
  const sent = JSON.stringify(sentBody(anthropicStub))
  assert.match(sent, /input_schema/)
  assert.match(sent, /my_native_tool/)
  await tk.close()
})

test("translate: a toolkit and an OpenAI tools array compose (toolkit first)", async () => {
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
  const tk = await createToolkit({
    builtins: false,
    extraTools: [defineTool({ name: "server_side_tool", description: "gateway's own", run: async () => "x" })],
  })
  await anthropicClient().translate({ messages: [{ role: "user", content: "go" }], toolkit: tk, tools: openAITools() })
  assert.deepEqual(sentBody(anthropicStub).tools.map((t) => t.name), ["server_side_tool", "get_weather"])
  await tk.close()
})

test("translate: tool_choice maps onto Anthropic's shape", async () => {
  const cases = [
    [undefined, null],
    ["auto", null],
    ["required", '"type":"any"'],
    ["none", '"type":"none"'],
    [{ type: "function", function: { name: "get_weather" } }, '"name":"get_weather"'],
  ]
  for (const [input, want] of cases) {
    anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
    await anthropicClient().translate({ messages: [{ role: "user", content: "go" }], tools: openAITools(), toolChoice: input })
    const sent = sentBody(anthropicStub)
    if (want === null) {
      assert.equal(sent.tool_choice, undefined, `tool_choice ${String(input)} should be omitted`)
    } else {
      assert.ok(sent.tool_choice, `tool_choice ${String(input)} missing`)
      assert.ok(JSON.stringify(sent.tool_choice).includes(want), `tool_choice did not map to ${want}`)
    }
  }
})

test("translate: finish reason maps from the provider stop reason", async () => {
  const cases = [
    ["end_turn", "stop"],
    ["max_tokens", "length"],
    ["refusal", "content_filter"],
    ["stop_sequence", "stop"],
  ]
  for (const [stop, want] of cases) {
    anthropicStub.script(reply(200, { content: [{ type: "text", text: "x" }], stop_reason: stop }))
    const res = await anthropicClient().translate({ messages: [{ role: "user", content: "go" }] })
    assert.equal(res.finishReason, want, `stop_reason ${stop}`)
  }
})

test("translate: arguments are accepted as an object as well as a string", async () => {
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
  await anthropicClient().translate({
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", tool_calls: [{ id: "z", function: { name: "f", arguments: { city: "Madurai" } } }] },
      { role: "tool", tool_call_id: "z", content: "done" },
    ],
  })
  const use = blocksOf(sentBody(anthropicStub)).find((b) => b.type === "tool_use")
  assert.ok(use, "no tool_use block upstream")
  assert.equal(use.input.city, "Madurai", "object-form arguments were not carried through")
})

test("translate: content given as parts is flattened to text", async () => {
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
  await anthropicClient().translate({
    messages: [{ role: "user", content: [{ type: "text", text: "part one " }, { type: "text", text: "part two" }] }],
  })
  assert.match(JSON.stringify(sentBody(anthropicStub)), /part one part two/)
  assert.deepEqual(sentBody(anthropicStub).messages, [{ role: "user", content: "part one part two" }])
})

test("translate: LLM hooks fire exactly once and no tool hook fires", async () => {
  anthropicStub.script(
    reply(200, { content: [{ type: "tool_use", id: "t1", name: "get_weather", input: {} }], stop_reason: "tool_use" }),
  )
  let before = 0
  let after = 0
  let toolHooks = 0
  const c = anthropicClient({
    hooks: {
      beforeLLM: async () => {
        before++
        return undefined
      },
      afterLLM: async () => {
        after++
      },
      beforeTool: async () => {
        toolHooks++
        return undefined
      },
      afterTool: async () => {
        toolHooks++
        return undefined
      },
    },
  })
  await c.translate({ messages: [{ role: "user", content: "go" }], tools: openAITools() })
  assert.equal(before, 1, "beforeLLM did not fire exactly once")
  assert.equal(after, 1, "afterLLM did not fire exactly once")
  assert.equal(toolHooks, 0, "a tool hook fired, but no tool runs in translate")
})

// ---- OpenAI upstream: near-passthrough (the reference's test) ----

test("translate: an OpenAI upstream passes tools and arguments through unchanged", async () => {
  openaiStub.script(
    reply(200, {
      choices: [
        {
          message: {
            content: "",
            tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Madurai"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    }),
  )
  const messages = [{ role: "user", content: "weather?" }]
  const res = await clientOf("openai").translate({ messages, tools: openAITools() })
  assert.equal(res.finishReason, "tool_calls")
  assert.equal(res.toolCalls.length, 1)
  assert.equal(res.toolCalls[0].arguments, '{"city":"Madurai"}', "arguments not byte-for-byte")
  assert.equal(res.usage.totalTokens, 7)
  assert.match(JSON.stringify(sentBody(openaiStub)), /"parameters"/, "OpenAI tools were altered on an OpenAI upstream")
  assert.deepEqual(sentBody(openaiStub).tools, openAITools())
  assert.deepEqual(sentBody(openaiStub).messages, messages)
})

// ---- beyond the reference ----

test("translate on OpenAI: tool_choice and maxTokens go as given, the system prompt only without a system message", async () => {
  openaiStub.script(reply(200, { choices: [{ message: { content: "ok" }, finish_reason: "stop" }] }))
  const c = clientOf("openai", { systemPrompt: "From client." })
  const res = await c.translate({ messages: [{ role: "user", content: "go" }], toolChoice: "required", maxTokens: 50 })
  assert.equal(res.text, "ok")
  const body = sentBody(openaiStub)
  assert.deepEqual(body.messages, [{ role: "system", content: "From client." }, { role: "user", content: "go" }])
  assert.equal(body.tool_choice, "required")
  assert.equal(body.max_tokens, 50)
  assert.equal(body.tools, undefined)

  openaiStub.script(reply(200, { choices: [{ message: { content: "ok" }, finish_reason: "stop" }] }))
  const own = [{ role: "developer", content: "Mine." }, { role: "user", content: "go" }]
  await c.translate({ messages: own, system: "Ignored when messages carry one." })
  assert.deepEqual(sentBody(openaiStub).messages, own)
})

test("translate on Anthropic: request.system overrides the hoisted one; maxTokens replaces 4096", async () => {
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
  await anthropicClient().translate({
    messages: [{ role: "system", content: "Hoisted." }, { role: "user", content: "go" }],
    system: "Override.",
    maxTokens: 64,
  })
  assert.equal(sentBody(anthropicStub).system, "Override.")
  assert.equal(sentBody(anthropicStub).max_tokens, 64)
  anthropicStub.script(reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" }))
  await anthropicClient().translate({ messages: [{ role: "user", content: "go" }] })
  assert.equal(sentBody(anthropicStub).max_tokens, 4096)
  assert.equal("system" in sentBody(anthropicStub), false, "an empty system prompt is left out")
})

/** Rejects with a ToolnexusError of `code` whose message matches `pattern`. */
async function refuses(promise, code, pattern) {
  await assert.rejects(promise, (e) => {
    assert.ok(isToolnexusError(e), `not a ToolnexusError: ${e}`)
    assert.equal(e.code, code)
    assert.match(e.message, pattern)
    return true
  })
}

test("translate: bad input is invalid_request, naming what is wrong, and nothing is sent", async () => {
  for (const style of ["anthropic", "openai"]) {
    const stub = style === "anthropic" ? anthropicStub : openaiStub
    stub.script()
    const c = clientOf(style)
    await refuses(c.translate({}), "invalid_request", /messages is required/)
    await refuses(c.translate({ messages: [] }), "invalid_request", /messages must be a non-empty array/)
    await refuses(c.translate({ messages: "hi" }), "invalid_request", /got a string/)
    await refuses(c.translate(undefined), "invalid_request", /request must be an object/)
    await refuses(
      c.translate({
        messages: [
          { role: "user", content: "go" },
          { role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: '{"city": ' } }] },
          { role: "tool", tool_call_id: "a", content: "r" },
        ],
      }),
      "invalid_request",
      /^translate: messages\[1\]\.tool_calls\[0\]\.function\.arguments is not JSON: /,
    )
    await refuses(
      c.translate({
        messages: [{ role: "assistant", tool_calls: [{ id: "a", function: { name: "f", arguments: "[1, 2]" } }] }],
      }),
      "invalid_request",
      /arguments must be a JSON object, got an array/,
    )
    await refuses(
      c.translate({ messages: [{ role: "user", content: "go" }, { role: "tool", tool_call_id: "ghost", content: "r" }] }),
      "invalid_request",
      /messages\[1\] \(role "tool"\) answers tool call "ghost", which no earlier assistant message made/,
    )
    await refuses(
      c.translate({ messages: [{ role: "tool", content: "r" }] }),
      "invalid_request",
      /has no tool_call_id/,
    )
    await refuses(c.translate({ messages: [{ role: "user", content: "go" }], tools: {} }), "invalid_request", /tools must be an array/)
    await refuses(c.translate({ messages: [{ role: "user", content: "go" }], toolkit: {} }), "invalid_request", /toolkit must be a Toolkit/)
    await refuses(c.translate({ messages: [{ role: "user", content: "go" }], signal: {} }), "invalid_request", /signal must be an AbortSignal/)
    await refuses(c.translate({ messages: [{ role: "user", content: "go" }], maxTokens: -1 }), "invalid_request", /maxTokens/)
    const cyclic = { role: "user", content: "go" }
    cyclic.self = cyclic
    await refuses(c.translate({ messages: [cyclic] }), "invalid_request", /messages is not JSON data/)
    assert.equal(stub.requests.length, 0, `${style}: a bad request reached the provider`)
  }
})

test("translate: shaping, retries and the llm metric are the loop's; no run event", async () => {
  const events = []
  let transformed = 0
  const c = anthropicClient({
    headers: { "x-gateway": "secret-header-value" },
    requestParams: { temperature: 0.25 },
    bodyTransform: (body) => {
      transformed++
      return { ...body, metadata: { user_id: "u1" } }
    },
    retries: 1,
    retryBaseMs: 1,
    onMetric: (e) => events.push(e),
  })
  anthropicStub.script(reply(503, "busy"), reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", usage: { input_tokens: 2, output_tokens: 3 } }))
  const res = await c.translate({ messages: [{ role: "user", content: "go" }] })
  assert.equal(res.text, "ok")
  assert.equal(anthropicStub.requests.length, 2, "a 503 was not retried")
  const last = anthropicStub.requests[1]
  assert.equal(last.headers["x-gateway"], "secret-header-value")
  assert.equal(last.headers["x-api-key"], "k")
  assert.equal(last.body.temperature, 0.25)
  assert.deepEqual(last.body.metadata, { user_id: "u1" })
  assert.equal(transformed, 1, "the body is shaped once and resent as it is")
  assert.deepEqual(events.map((e) => e.event), ["llm"])
  assert.equal(events[0].status, "ok")
  assert.equal(events[0].promptTokens, 2)
  assert.match(c.metrics(), /^toolnexus_llm_requests_total\{model="stub",status="ok"\} 1$/m)
})

test("translate: a provider failure rejects with the loop's error and no secret in it", async () => {
  const c = anthropicClient({ apiKey: "sk-very-secret", headers: { authorization: "Bearer tok-hidden-1" }, retries: 0 })
  anthropicStub.script(reply(401, "invalid key sk-very-secret (Bearer tok-hidden-1)"))
  await assert.rejects(c.translate({ messages: [{ role: "user", content: "go" }] }), (e) => {
    assert.equal(e.code, "http_status")
    assert.equal(e.status, 401)
    assert.doesNotMatch(e.message, /sk-very-secret|tok-hidden-1/)
    return true
  })
})

test("translate: a signal aborts the call in flight; an aborted one sends nothing", async () => {
  anthropicStub.script({ hang: true })
  const controller = new AbortController()
  const pending = anthropicClient().translate({ messages: [{ role: "user", content: "go" }], signal: controller.signal })
  await anthropicStub.waitForRequests(1)
  controller.abort(new Error("user left"))
  await assert.rejects(pending, (e) => e.code === "aborted" && e.name === "AbortError")

  anthropicStub.script()
  await assert.rejects(
    anthropicClient().translate({ messages: [{ role: "user", content: "go" }], signal: AbortSignal.abort() }),
    (e) => e.code === "aborted",
  )
  assert.equal(anthropicStub.requests.length, 0)
})

test("translate: timeoutMs bounds the call", async () => {
  anthropicStub.script({ hang: true })
  await assert.rejects(
    anthropicClient({ timeoutMs: 150 }).translate({ messages: [{ role: "user", content: "go" }] }),
    (e) => e.code === "aborted" && /timed out/.test(e.message),
  )
})

test("Client.toolCallsJSON renders a result's calls as an OpenAI tool_calls array", async () => {
  anthropicStub.script(
    reply(200, {
      content: [
        { type: "tool_use", id: "t1", name: "alpha", input: { n: 1 } },
        { type: "tool_use", id: "t2", name: "beta", input: {} },
      ],
      stop_reason: "tool_use",
    }),
  )
  const res = await anthropicClient().translate({ messages: [{ role: "user", content: "go" }] })
  assert.deepEqual(Client.toolCallsJSON(res), [
    { id: "t1", type: "function", function: { name: "alpha", arguments: '{"n":1}' } },
    { id: "t2", type: "function", function: { name: "beta", arguments: "{}" } },
  ])
  assert.deepEqual(Client.toolCallsJSON({ toolCalls: [] }), [])
  assert.throws(() => Client.toolCallsJSON({}), (e) => e.code === "invalid_argument")
  assert.throws(() => Client.toolCallsJSON(null), (e) => e.code === "invalid_argument")
})

test("translate is the full build's: the lean core has neither the method nor the helpers", () => {
  const lean = core.createClient({ baseUrl: anthropicStub.baseUrl, style: "anthropic", model: "stub", apiKey: "k" })
  assert.equal(typeof lean.translate, "undefined")
  assert.equal(typeof core.Client.toolCallsJSON, "undefined")
  for (const name of ["openAIMessagesToAnthropic", "openAIToolsToAnthropic", "openAIToolChoiceToAnthropic", "finishReasonFor", "argsObject", "argsString", "toolCallsOf", "contentText", "hasSystemMessage"]) {
    assert.equal(name in core, false, name)
  }
})

// ---- the pure helpers ----

test("openAIMessagesToAnthropic: tool structure kept, system hoisted, results merged", () => {
  const out = openAIMessagesToAnthropic([
    { role: "system", content: "One." },
    { role: "developer", content: [{ type: "text", text: "Two." }] },
    { role: "user", content: "go" },
    { role: "assistant", content: "calling", tool_calls: [{ id: "a", function: { name: "f", arguments: '{"x":1}' } }, { id: "b", function: { name: "g", arguments: { y: 2 } } }] },
    { role: "tool", tool_call_id: "a", content: "ra" },
    { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "rb" }] },
    { role: "assistant", content: "" },
    null,
    "x",
  ])
  assert.equal(out.system, "One.\n\nTwo.")
  assert.deepEqual(out.messages, [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "calling" },
        { type: "tool_use", id: "a", name: "f", input: { x: 1 } },
        { type: "tool_use", id: "b", name: "g", input: { y: 2 } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", content: "ra", tool_use_id: "a" },
        { type: "tool_result", content: "rb", tool_use_id: "b" },
      ],
    },
  ])
  assert.deepEqual(openAIMessagesToAnthropic([]), { messages: [], system: "" })
})

test("openAIToolsToAnthropic, openAIToolChoiceToAnthropic, finishReasonFor", () => {
  assert.deepEqual(openAIToolsToAnthropic(openAITools()), [
    {
      name: "get_weather",
      description: "Get the weather",
      input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ])
  assert.deepEqual(openAIToolsToAnthropic([{ type: "function", function: { name: "bare" } }, { name: "native", input_schema: {} }, { type: "function" }, 1]), [
    { name: "bare", input_schema: { type: "object", properties: {} } },
    { name: "native", input_schema: {} },
  ])
  assert.deepEqual(openAIToolsToAnthropic(undefined), [])
  assert.deepEqual(openAIToolChoiceToAnthropic("required"), { type: "any" })
  assert.deepEqual(openAIToolChoiceToAnthropic("any"), { type: "any" })
  assert.deepEqual(openAIToolChoiceToAnthropic("none"), { type: "none" })
  assert.deepEqual(openAIToolChoiceToAnthropic({ type: "function", function: { name: "f" } }), { type: "tool", name: "f" })
  for (const absent of ["auto", undefined, null, 3, {}, "other"]) assert.equal(openAIToolChoiceToAnthropic(absent), undefined)
  assert.equal(finishReasonFor(true, "end_turn"), "tool_calls")
  assert.equal(finishReasonFor(false, "max_tokens"), "length")
  assert.equal(finishReasonFor(false, "length"), "length")
  assert.equal(finishReasonFor(false, "refusal"), "content_filter")
  assert.equal(finishReasonFor(false, "content_filter"), "content_filter")
  assert.equal(finishReasonFor(false, "end_turn"), "stop")
  assert.equal(finishReasonFor(false), "stop")
})

test("argsObject, argsString, toolCallsOf, contentText, hasSystemMessage", () => {
  assert.deepEqual(argsObject('{"a":1}'), { a: 1 })
  assert.deepEqual(argsObject({ b: 2 }), { b: 2 })
  assert.deepEqual(argsObject("not json"), {})
  assert.deepEqual(argsObject("   "), {})
  assert.deepEqual(argsObject(7), {})
  assert.deepEqual(argsObject(undefined), {})
  assert.equal(argsString('{"a":1}'), '{"a":1}')
  assert.equal(argsString({ city: "Madurai" }), '{"city":"Madurai"}')
  assert.equal(argsString(null), "{}")
  assert.equal(argsString(5), "{}")
  assert.deepEqual(
    toolCallsOf({
      role: "assistant",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "f", arguments: { x: 1 } } },
        { id: "skipped" },
        { function: { name: "g" } },
      ],
    }),
    [
      { id: "c1", name: "f", arguments: '{"x":1}' },
      { id: "", name: "g", arguments: "{}" },
    ],
  )
  assert.deepEqual(toolCallsOf({ role: "user" }), [])
  assert.deepEqual(toolCallsOf(undefined), [])
  assert.equal(contentText("plain"), "plain")
  assert.equal(contentText([{ type: "text", text: "a" }, { type: "image_url", image_url: { url: "u" } }, { type: "text", text: "b" }]), "ab")
  assert.equal(contentText(null), "")
  assert.equal(contentText(undefined), "")
  assert.equal(hasSystemMessage([{ role: "developer", content: "x" }]), true)
  assert.equal(hasSystemMessage([{ role: "user", content: "x" }, null]), false)
  assert.equal(hasSystemMessage([]), false)
})

test("the helpers and translate survive hostile values: a value or a ToolnexusError, never a crash", async () => {
  const hostile = [
    undefined, null, 0, NaN, "", "{", 1n, Symbol("s"), () => 1, [], [null], { toJSON() { throw new Error("no") } },
    new Proxy({}, { get() { throw new Error("trap") } }), { get role() { throw new Error("getter") } },
  ]
  const cyclic = []
  cyclic.push(cyclic)
  hostile.push(cyclic)
  const helpers = [
    openAIMessagesToAnthropic, openAIToolsToAnthropic, openAIToolChoiceToAnthropic, finishReasonFor, argsObject, argsString,
    toolCallsOf, contentText, hasSystemMessage, Client.toolCallsJSON,
  ]
  for (const helper of helpers) {
    for (const value of hostile) {
      try {
        helper(value)
      } catch (e) {
        assert.ok(isToolnexusError(e), `${helper.name}(${String(typeof value)}) threw a non-ToolnexusError: ${e}`)
      }
    }
  }
  anthropicStub.script()
  const c = anthropicClient()
  for (const value of hostile) {
    for (const request of [value, { messages: value }, { messages: [value] }]) {
      await assert.rejects(c.translate(request), (e) => isToolnexusError(e) && e.code === "invalid_request")
    }
  }
  assert.equal(anthropicStub.requests.length, 0)
  // As `tools`, a hostile value is refused, or (an array, absence) sent as an empty list.
  const ok = () => reply(200, { content: [{ type: "text", text: "ok" }], stop_reason: "end_turn" })
  anthropicStub.script(...hostile.map(ok))
  for (const value of hostile) {
    try {
      const res = await c.translate({ messages: [{ role: "user", content: "x" }], tools: value })
      assert.equal(res.text, "ok")
    } catch (e) {
      assert.ok(isToolnexusError(e) && e.code === "invalid_request", `tools ${String(typeof value)}: ${e}`)
    }
  }
  // Still working afterwards.
  assert.equal(contentText([{ text: "ok" }]), "ok")
})
