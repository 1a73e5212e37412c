// @ts-check
// An OpenAI `/v1/chat/completions` endpoint backed by an Anthropic model: each request is one
// `client.translate` call (one Anthropic request); tool calls go back to the caller, none runs here.
// No streaming, no auth of its own (it listens on 127.0.0.1); the request's `model`, `temperature`
// and the like are not forwarded.
//   Node: ANTHROPIC_API_KEY=sk-ant-... node examples/translate-proxy.mjs
//   Deno: ANTHROPIC_API_KEY=sk-ant-... deno run --allow-net --allow-env --allow-read examples/translate-proxy.mjs
// Optional: ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, PORT (0 picks a free one). Point an OpenAI client at the printed URL.
import { Client, createClient, isToolnexusError } from "toolnexus-wasm"

const { ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, ANTHROPIC_API_KEY, PORT = "8787" } = process.env
const client = createClient({ style: "anthropic", baseUrl: ANTHROPIC_BASE_URL ?? "https://api.anthropic.com",
  model: ANTHROPIC_MODEL ?? "claude-sonnet-4-5", apiKey: ANTHROPIC_API_KEY })
const fail = (/** @type {number} */ status, /** @type {string} */ message, code = "invalid_request") =>
  Response.json({ error: { message, type: status < 500 ? "invalid_request_error" : "api_error", code } }, { status })

/** A WHATWG handler: `Deno.serve(handler)` takes it as it is. */
export async function handler(/** @type {Request} */ request) {
  if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/chat/completions")) return fail(404, "not found", "not_found")
  const body = await request.json().catch(() => null)
  if (typeof body !== "object" || body === null) return fail(400, "the body must be a JSON object")
  if (body.stream) return fail(400, "streaming is not supported by this proxy")
  try {
    // A caller that hangs up cancels the Anthropic call (Deno 2.9 prints a one-time note about request.signal: harmless here).
    const r = await client.translate({ messages: body.messages, tools: body.tools, toolChoice: body.tool_choice,
      maxTokens: body.max_completion_tokens ?? body.max_tokens, signal: request.signal })
    const message = { role: "assistant", content: r.text === "" && r.toolCalls.length ? null : r.text,
      ...(r.toolCalls.length ? { tool_calls: Client.toolCallsJSON(r) } : {}) }
    return Response.json({ id: `chatcmpl-${crypto.randomUUID()}`, object: "chat.completion", created: Math.floor(Date.now() / 1000),
      model: r.model, choices: [{ index: 0, message, finish_reason: r.finishReason, logprobs: null }],
      usage: { prompt_tokens: r.usage.promptTokens, completion_tokens: r.usage.completionTokens, total_tokens: r.usage.totalTokens } })
  } catch (e) {
    if (!isToolnexusError(e)) return fail(500, "internal error", "internal")
    return e.code === "invalid_request" ? fail(400, e.message) : fail(502, `upstream: ${e.message}`, e.code)
  }
}

const listening = (/** @type {number} */ port) => console.log(`listening on http://127.0.0.1:${port}/v1`)
const Deno = /** @type {any} */ (globalThis).Deno
if (Deno) Deno.serve({ hostname: "127.0.0.1", port: Number(PORT), onListen: (/** @type {any} */ a) => listening(a.port) }, handler)
else {
  // Node: the same handler over node:http.
  const { createServer } = await import("node:http")
  const server = createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const aborter = new AbortController()
    res.on("close", () => aborter.abort())
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, body: req.method === "POST" ? Buffer.concat(chunks) : undefined, signal: aborter.signal }))
    res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text())
  })
  server.listen(Number(PORT), "127.0.0.1", () => listening(/** @type {import("node:net").AddressInfo} */ (server.address()).port))
}
