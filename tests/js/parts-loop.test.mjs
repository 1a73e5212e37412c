// Content parts through the loop (SPEC §1B, §8A) on the built package: a prompt of parts, a
// tool that returns parts, both styles, a refusal before anything is sent, the transcript that
// keeps the portable parts, and a durable halt that carries an image through JSON.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createClient, createInProcessClient, createToolkit, defineTool, image, audio, pending, isToolnexusError } from "toolnexus-wasm"

const PNG = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10])
const B64 = Buffer.from(PNG).toString("base64")
const DATA_URL = `data:image/png;base64,${B64}`
const shot = image(PNG, { mimeType: "image/png", name: "shot.png" })

/** An Anthropic endpoint that records each request body and answers from `replies`. */
function anthropic(replies) {
  const bodies = []
  const fetch = async (_url, init) => {
    bodies.push(JSON.parse(init.body))
    const content = replies[bodies.length - 1] ?? [{ type: "text", text: "done" }]
    const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"
    return new Response(JSON.stringify({ id: "m", type: "message", role: "assistant", content, stop_reason: stop, usage: { input_tokens: 1, output_tokens: 1 } }))
  }
  const client = createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "anthropic", model: "claude", apiKey: "k", fetch, retries: 0 })
  return { client, bodies, fetch }
}

test("openai style: an attached image reaches the model as an image_url block; the transcript keeps the part", async () => {
  const seen = []
  const client = createInProcessClient({ model: "m", generate: ({ messages }) => (seen.push(messages), { content: "a PNG" }) })
  const toolkit = await createToolkit({ builtins: false })
  const r = await client.run(["What is this?", shot], { toolkit })
  assert.equal(r.text, "a PNG")
  assert.deepEqual(seen[0].at(-1), { role: "user", content: [
    { type: "text", text: "What is this?" },
    { type: "image_url", image_url: { url: DATA_URL } },
  ] })
  assert.deepEqual(r.messages[0], { role: "user", content: [{ type: "text", text: "What is this?" }, shot] })
})

test("openai style: a tool's image moves into one user message after the results, never into the transcript", async () => {
  const camera = defineTool({ name: "camera", run: () => ({ output: "took a shot", parts: [shot] }) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [camera] })
  const seen = []
  let turn = 0
  const client = createInProcessClient({
    model: "m",
    generate: ({ messages }) => (seen.push(messages), turn++ === 0 ? { toolCalls: [{ id: "c1", name: "camera", arguments: {} }] } : { content: "I see it" }),
  })
  const r = await client.run("take a picture", { toolkit })
  assert.equal(r.text, "I see it")
  const second = seen[1]
  assert.deepEqual(second.slice(-2), [
    { role: "tool", tool_call_id: "c1", content: "took a shot" },
    { role: "user", content: [{ type: "text", text: "Output of tool camera (c1):" }, { type: "image_url", image_url: { url: DATA_URL } }] },
  ])
  const toolMessage = r.messages.find((m) => m.role === "tool")
  assert.deepEqual(toolMessage, { role: "tool", tool_call_id: "c1", content: "took a shot", parts: [shot] })
  assert.equal(r.messages.filter((m) => m.role === "user").length, 1, "the moved message is the request's only")
  assert.deepEqual(r.toolCalls[0], { name: "camera", args: {}, output: "took a shot", isError: false })
})

test("anthropic style: attached parts become image blocks, a tool's parts stay in its tool_result", async () => {
  const camera = defineTool({ name: "camera", run: () => ({ output: "took a shot", parts: [shot] }) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [camera] })
  const { client, bodies } = anthropic([[{ type: "tool_use", id: "t1", name: "camera", input: {} }]])
  const r = await client.run([shot, "and take another"], { toolkit })
  assert.equal(r.text, "done")
  assert.deepEqual(bodies[0].messages[0].content, [
    { type: "image", source: { type: "base64", media_type: "image/png", data: B64 } },
    { type: "text", text: "and take another" },
  ])
  assert.deepEqual(bodies[1].messages.at(-1), { role: "user", content: [{
    type: "tool_result", tool_use_id: "t1",
    content: [{ type: "text", text: "took a shot" }, { type: "image", source: { type: "base64", media_type: "image/png", data: B64 } }],
    is_error: false,
  }] })
})

test("a part the provider cannot take, attached, fails before anything is sent; a tool's degrades to text", async () => {
  const clip = audio(PNG, { mimeType: "audio/wav" })
  const toolkit = await createToolkit({ builtins: false, extraTools: [defineTool({ name: "rec", run: () => ({ output: "recorded", parts: [clip] }) })] })
  const { client, bodies } = anthropic([[{ type: "tool_use", id: "t1", name: "rec", input: {} }]])
  await assert.rejects(client.run(["listen", clip], { toolkit }), (e) =>
    isToolnexusError(e) && e.code === "unsupported_part" && e.message === 'no "anthropic" block shape for a audio part (audio/wav)')
  assert.equal(bodies.length, 0, "nothing was sent")
  const r = await client.run("record something", { toolkit })
  assert.equal(r.text, "done")
  assert.deepEqual(bodies[1].messages.at(-1).content[0].content, [
    { type: "text", text: "recorded" },
    { type: "text", text: "[unsupported audio part (audio/wav, 8 bytes)]" },
  ])
})

test("onUnsupportedPart: \"text\" describes an attached part too, \"error\" fails on a tool's; a bad value is refused", async () => {
  const clip = audio(PNG, { mimeType: "audio/wav" })
  const rec = defineTool({ name: "rec", run: () => ({ output: "recorded", parts: [clip] }) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [rec] })
  const placeholder = { type: "text", text: "[unsupported audio part (audio/wav, 8 bytes)]" }

  const lenient = anthropic([])
  const client = createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "anthropic", model: "claude", apiKey: "k", fetch: lenient.fetch, retries: 0, onUnsupportedPart: "text" })
  assert.equal((await client.run(["listen", clip], { toolkit })).text, "done")
  assert.deepEqual(lenient.bodies[0].messages[0].content, [{ type: "text", text: "listen" }, placeholder])

  const strict = anthropic([[{ type: "tool_use", id: "t1", name: "rec", input: {} }]])
  const failing = createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "anthropic", model: "claude", apiKey: "k", fetch: strict.fetch, retries: 0, onUnsupportedPart: "error" })
  await assert.rejects(failing.run("record", { toolkit }), { code: "unsupported_part", message: 'no "anthropic" block shape for a audio part (audio/wav)' })
  assert.equal(strict.bodies.length, 1, "the first request went; the one carrying the tool's audio did not")

  assert.throws(() => createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", onUnsupportedPart: "drop" }), {
    code: "invalid_options", message: 'createClient: onUnsupportedPart must be "error" or "text", got "drop"' })
})

test("bad prompts and bad tool parts are clear errors", async () => {
  const client = createInProcessClient({ model: "m", generate: () => ({ content: "x" }) })
  const toolkit = await createToolkit({ builtins: false })
  await assert.rejects(client.run([], { toolkit }), { code: "invalid_argument", message: "run: prompt is an empty array: give it text or content parts" })
  await assert.rejects(client.run(["a", 42], { toolkit }), { code: "invalid_part", message: "run: prompt[1]: expected a string or a content part, got number" })
  await assert.rejects(client.run([{ type: "image", mimeType: "image/png" }], { toolkit }), {
    code: "invalid_part", message: "run: prompt[0]: a image part carries neither data nor url — exactly one is required" })
  await assert.rejects(client.run(5, { toolkit }), { code: "invalid_argument", message: "run: prompt must be a string or an array of content parts, got number" })
  const bad = defineTool({ name: "bad", run: () => ({ output: "x", parts: [{ type: "image", url: "file:///etc/passwd", mimeType: "image/png" }] }) })
  assert.deepEqual(await bad.execute({}), {
    output: 'Tool "bad" returned a ToolResult whose "parts" [0] is not a valid content part: a image part\'s url must be an http: or https: URL, got a file: URL',
    isError: true,
  })
})

test("a halted run holding an image is plain JSON and resumes with it", async () => {
  const approve = defineTool({ name: "approve", run: (_a, ctx) => (ctx.answer?.ok ? "approved" : pending({ kind: "approval", prompt: "ok?" })) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [approve] })
  const seen = []
  const generate = ({ messages }) => {
    seen.push(messages)
    return messages.at(-1).role === "tool" ? { content: "thanks" } : { toolCalls: [{ id: "c1", name: "approve", arguments: {} }] }
  }
  const halted = await createInProcessClient({ model: "m", generate }).run(["check this", shot], { toolkit })
  assert.equal(halted.status, "pending")
  const stored = JSON.parse(JSON.stringify(halted))
  const done = await createInProcessClient({ model: "m", generate }).runWithAnswer({
    toolkit, history: stored.messages, pending: stored.pending, answer: { id: stored.pending.id, ok: true },
  })
  assert.equal(done.text, "thanks")
  assert.deepEqual(seen.at(-1)[0].content[1], { type: "image_url", image_url: { url: DATA_URL } })
})

test("an MCP server's image reaches the model as a block; its file link, which OpenAI cannot take by URL, as a placeholder", async () => {
  const { startMcpServer } = await import("./support/mcp-server.mjs")
  const server = await startMcpServer()
  try {
    const toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url: server.url("/mcp") } } } })
    const seen = []
    let turn = 0
    const client = createInProcessClient({
      model: "m",
      generate: ({ messages }) => (seen.push(messages), turn++ === 0 ? { toolCalls: [{ id: "c1", name: "s_mixed", arguments: {} }] } : { content: "seen" }),
    })
    const r = await client.run("show me", { toolkit })
    assert.equal(r.text, "seen")
    const moved = seen[1].at(-1)
    assert.equal(moved.role, "user")
    assert.deepEqual(moved.content.map((b) => b.type === "text" ? b.text : b.type), [
      "Output of tool s_mixed (c1):", "image_url",
      "Output of tool s_mixed (c1):", "[unsupported file part (application/octet-stream, 0 bytes)]",
    ])
    assert.match(moved.content[1].image_url.url, /^data:image\/png;base64,iVBORw0KGgo/)
    await toolkit.close()
  } finally {
    await server.close()
  }
})

test("translate: an OpenAI request's content parts reach an Anthropic model as image blocks", async () => {
  const { client, bodies } = anthropic([[{ type: "text", text: "a PNG" }]])
  const r = await client.translate({ messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, shot] }] })
  assert.equal(r.text, "a PNG")
  assert.deepEqual(bodies[0].messages, [{ role: "user", content: [
    { type: "text", text: "What is this?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: B64 } },
  ] }])
})

test("maxPartBytes on the client: an attached part over it fails before sending, a tool's is a placeholder", async () => {
  const camera = defineTool({ name: "camera", run: () => ({ output: "took a shot", parts: [shot] }) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [camera] })
  const seen = []
  let turn = 0
  const client = createInProcessClient({
    model: "m",
    maxPartBytes: 4,
    generate: ({ messages }) => (seen.push(messages), turn++ === 0 ? { toolCalls: [{ id: "c1", name: "camera", arguments: {} }] } : { content: "ok" }),
  })
  await assert.rejects(client.run(["look", shot], { toolkit }), { code: "invalid_part", message: "content part is 8 decoded bytes, over the maxPartBytes limit of 4" })
  assert.equal(seen.length, 0, "nothing was sent")
  const r = await client.run("take one", { toolkit })
  assert.equal(r.text, "ok")
  assert.deepEqual(seen[1].at(-1).content[1], { type: "text", text: "[unsupported image part (image/png, 8 bytes)]" })
  assert.throws(() => createInProcessClient({ model: "m", maxPartBytes: -1, generate: () => ({ content: "x" }) }), { code: "invalid_options" })
})
