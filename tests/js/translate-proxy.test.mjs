// examples/translate-proxy.mjs, run as a user runs it (node, then deno when installed), in front
// of the scripted Anthropic stub, and called with the official `openai` npm client: what the
// client gets back is an OpenAI chat.completion, what the stub gets is an Anthropic request, bad
// input is the client's APIError 400 with nothing sent upstream, and the key stays out of every
// answer.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import OpenAI from "openai"
import { startAnthropicStub, anthropic, reply } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const KEY = "sk-ant-proxy-test-3f9c1e"
const CALLER_KEY = "sk-caller-side-5d20"
const root = fileURLToPath(new URL("../../", import.meta.url))
const example = "examples/translate-proxy.mjs"
const deno = root + "node_modules/.bin/deno"

const stub = await startAnthropicStub()
const children = []
after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill()
      await exited
    }
  }
  await stub.close()
})

/** Spawns the example; resolves its printed base URL once it listens. */
async function startProxy(command, args) {
  const env = { ...process.env, ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: KEY, ANTHROPIC_MODEL: "claude-stub", PORT: "0" }
  const child = spawn(command, args, { cwd: root, env: { ...env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] })
  children.push(child)
  let out = ""
  let err = ""
  child.stderr.on("data", (d) => (err += d))
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(out)
      if (m) resolve(m[1])
    })
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}) before listening:\n${out}${err}`)))
    setTimeout(() => reject(new Error(`the proxy printed no URL in 60 s:\n${out}${err}`)), 60_000).unref()
  })
}

/** Every response body the proxy sent, as text, to check for the key. */
const bodies = []
/** The official client against `baseURL`, recording the raw answers; no retries. */
const openaiAt = (baseURL) =>
  new OpenAI({
    baseURL,
    apiKey: CALLER_KEY,
    maxRetries: 0,
    fetch: async (url, init) => {
      const response = await fetch(url, init)
      bodies.push(await response.clone().text())
      return response
    },
  })

const client = openaiAt(await startProxy(process.execPath, [example]))

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
}
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"

test("a plain question: text, finish_reason stop and usage, one Anthropic request with the system prompt hoisted", async () => {
  stub.script(anthropic.text("Hello from the stub.", anthropic.usage(12, 5)))
  const before = Math.floor(Date.now() / 1000)
  const completion = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
    ],
  })
  assert.equal(completion.object, "chat.completion")
  assert.match(completion.id, /^chatcmpl-/)
  assert.ok(completion.created >= before && completion.created <= before + 60, `created ${completion.created}`)
  assert.equal(completion.model, "claude-stub")
  assert.equal(completion.choices.length, 1)
  assert.equal(completion.choices[0].index, 0)
  assert.deepEqual(completion.choices[0].message, { role: "assistant", content: "Hello from the stub." })
  assert.equal(completion.choices[0].finish_reason, "stop")
  assert.deepEqual(completion.usage, { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 })

  assert.equal(stub.requests.length, 1)
  const sent = stub.requests[0]
  assert.equal(sent.url, "/v1/messages")
  assert.equal(sent.headers["x-api-key"], KEY)
  assert.doesNotMatch(JSON.stringify(sent.headers), new RegExp(CALLER_KEY), "the caller's key went upstream")
  assert.deepEqual(sent.body, { model: "claude-stub", max_tokens: 4096, system: "Be brief.", messages: [{ role: "user", content: "hi" }] })
})

test("tools: a tool_use block comes back as tool_calls, the request went out in Anthropic shape", async () => {
  stub.script(anthropic.toolUse([{ id: "toolu_01", name: "get_weather", input: { city: "Chennai" } }], anthropic.usage(30, 9), "Let me check."))
  const completion = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [{ role: "user", content: "Weather in Chennai?" }],
    tools: [weatherTool],
    tool_choice: "required",
    max_tokens: 256,
  })
  const choice = completion.choices[0]
  assert.equal(choice.finish_reason, "tool_calls")
  assert.equal(choice.message.content, "Let me check.")
  assert.deepEqual(choice.message.tool_calls, [
    { id: "toolu_01", type: "function", function: { name: "get_weather", arguments: '{"city":"Chennai"}' } },
  ])
  assert.equal(typeof choice.message.tool_calls[0].function.arguments, "string")
  assert.deepEqual(JSON.parse(choice.message.tool_calls[0].function.arguments), { city: "Chennai" })
  assert.deepEqual(completion.usage, { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 })

  const body = stub.requests[0].body
  assert.deepEqual(body.tools, [
    {
      name: "get_weather",
      description: "Get the weather",
      input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ])
  assert.deepEqual(body.tool_choice, { type: "any" })
  assert.equal(body.max_tokens, 256)
  assert.deepEqual(body.messages, [{ role: "user", content: "Weather in Chennai?" }])
})

test("the follow-up turn: the assistant's tool_calls and the tool message reach Anthropic as tool_use and tool_result", async () => {
  stub.script(
    anthropic.toolUse([{ id: "toolu_02", name: "get_weather", input: { city: "Madurai" } }]),
    anthropic.text("It is 31C and clear in Madurai.", anthropic.usage(40, 11)),
  )
  const messages = [{ role: "user", content: "Weather in Madurai?" }]
  const first = await client.chat.completions.create({ model: "gpt-4o", messages, tools: [weatherTool] })
  const call = first.choices[0].message.tool_calls[0]
  // As a caller does: the assistant message as it came, then the tool's answer.
  messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: "31C, clear" })
  const second = await client.chat.completions.create({ model: "gpt-4o", messages, tools: [weatherTool] })
  assert.equal(second.choices[0].message.content, "It is 31C and clear in Madurai.")
  assert.equal(second.choices[0].finish_reason, "stop")
  assert.equal(second.choices[0].message.tool_calls, undefined)

  assert.equal(stub.requests.length, 2)
  assert.deepEqual(stub.requests[1].body.messages, [
    { role: "user", content: "Weather in Madurai?" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_02", name: "get_weather", input: { city: "Madurai" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_02", content: "31C, clear" }] },
  ])
})

test("an image_url data URL in a user message reaches Anthropic as an image block with a base64 source", async () => {
  stub.script(anthropic.text("A green pixel."))
  const completion = await client.chat.completions.create({
    model: "gpt-4o",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ],
  })
  assert.equal(completion.choices[0].message.content, "A green pixel.")
  const [message] = stub.requests[0].body.messages
  assert.equal(message.role, "user")
  assert.ok(Array.isArray(message.content), `content sent as ${JSON.stringify(message.content)}`)
  assert.deepEqual(message.content, [
    { type: "text", text: "What is this?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
  ])
})

/** The APIError the client throws for `request`. */
async function apiError(request) {
  try {
    await client.chat.completions.create(request)
  } catch (e) {
    assert.ok(e instanceof OpenAI.APIError, `not an APIError: ${e}`)
    return e
  }
  assert.fail("the request did not fail")
}

test("bad input is an APIError 400 naming the problem, and nothing reaches Anthropic", async () => {
  stub.script()
  const ghost = await apiError({
    model: "gpt-4o",
    messages: [
      { role: "user", content: "go" },
      { role: "tool", tool_call_id: "ghost", content: "r" },
    ],
  })
  assert.equal(ghost.status, 400)
  assert.match(ghost.message, /messages\[1\] \(role "tool"\) answers tool call "ghost", which no earlier assistant message made/)
  assert.equal(ghost.type, "invalid_request_error")
  assert.equal(ghost.code, "invalid_request")

  const args = await apiError({
    model: "gpt-4o",
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: '{"city": ' } }] },
      { role: "tool", tool_call_id: "a", content: "r" },
    ],
  })
  assert.equal(args.status, 400)
  assert.match(args.message, /messages\[1\]\.tool_calls\[0\]\.function\.arguments is not JSON/)

  const empty = await apiError({ model: "gpt-4o", messages: [] })
  assert.equal(empty.status, 400)
  assert.match(empty.message, /messages must be a non-empty array/)

  const streaming = await apiError({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true })
  assert.equal(streaming.status, 400)
  assert.match(streaming.message, /streaming is not supported by this proxy/)

  assert.equal(stub.requests.length, 0, "a refused request reached the provider")
})

test("an upstream failure is a 502 without the key, and no answer so far held the key", async () => {
  stub.script(reply(401, { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } }))
  const e = await apiError({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
  assert.equal(e.status, 502)
  assert.equal(e.code, "http_status")
  assert.match(e.message, /401/)
  assert.equal(stub.requests.length, 1)
  assert.equal(stub.requests[0].headers["x-api-key"], KEY, "the key was sent upstream")
  assert.match(bodies.at(-1), /401/, "the 502 answer was not recorded")
  for (const body of bodies) assert.ok(!body.includes(KEY), `the key leaked in an answer: ${body}`)
})

test(
  "the same example under Deno answers the openai client",
  { skip: existsSync(deno) ? false : "node_modules/.bin/deno is absent (the npm `deno` devDependency); not run under Deno" },
  async () => {
    const denoClient = openaiAt(
      await startProxy(deno, ["run", "--allow-net", "--allow-env", "--allow-read", "--no-prompt", "--no-lock", example]),
    )
    stub.script(anthropic.toolUse([{ id: "toolu_d1", name: "get_weather", input: { city: "Kochi" } }], anthropic.usage(7, 3)))
    const completion = await denoClient.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Weather in Kochi?" }],
      tools: [weatherTool],
    })
    assert.equal(completion.object, "chat.completion")
    assert.equal(completion.choices[0].finish_reason, "tool_calls")
    assert.equal(completion.choices[0].message.content, null)
    assert.deepEqual(completion.choices[0].message.tool_calls, [
      { id: "toolu_d1", type: "function", function: { name: "get_weather", arguments: '{"city":"Kochi"}' } },
    ])
    assert.deepEqual(completion.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })
    assert.equal(stub.requests[0].headers["x-api-key"], KEY)
    assert.equal(stub.requests[0].body.tools[0].name, "get_weather")

    stub.script()
    const refused = await denoClient.chat.completions
      .create({ model: "gpt-4o", messages: [{ role: "tool", content: "r" }] })
      .catch((e) => e)
    assert.ok(refused instanceof OpenAI.APIError, String(refused))
    assert.equal(refused.status, 400)
    assert.match(refused.message, /has no tool_call_id/)
    assert.equal(stub.requests.length, 0)
    for (const body of bodies) assert.ok(!body.includes(KEY), `the key leaked in an answer: ${body}`)
  },
)
