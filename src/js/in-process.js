// `createInProcessClient(options)`: a client whose model runs in this process. Plain
// JavaScript over the module's `createClient`: its transport is a `fetch` that answers every
// request by calling the host's `generate` and writing the OpenAI response a server would have
// sent, so hooks, retries, shaping and the loop behave exactly as they do over HTTP. As Rust
// this cost the lean module 3 KiB gzip; here it is JSON the platform reads and writes. A
// failure of `generate` (or an answer it cannot use) is final: the transport refuses the
// request (`__toolnexusRefused`, which the module's fetch reader turns into a `model` error
// that is never retried). The entries export it as `createInProcessClient`.
import { errorText, storeError, typeName } from "./stores.js"

/** The base URL an in-process client reports; it is never dialled. */
const BASE_URL = "http://in-process.invalid/v1"
const WHAT = "createInProcessClient"

const invalid = (message) => storeError("invalid_options", message)

// The reference port's texts, word for word (its tests match them).
const NEEDS_GENERATE = "toolnexus: createInProcessClient requires a `generate` function"
const NO_STREAMING =
  "toolnexus: createInProcessClient does not support streaming — `generate` returns a complete answer. " +
  "Use the non-streaming run, or supply a `fetch`/transport that streams."

/** A refusal the module reads as final: `the in-process model failed: <message>`. */
function refused(message) {
  const error = new Error(message)
  error.__toolnexusRefused = message
  return error
}

/** A plain-JSON copy (`toJSON` kept, `undefined` as `null`); what cannot be copied is refused. */
function json(value) {
  let text
  try {
    text = JSON.stringify(value)
  } catch (thrown) {
    throw refused(errorText(thrown))
  }
  return text === undefined ? null : JSON.parse(text)
}

/** A whole number of tokens, else 0. */
const tokens = (value) => (Number.isInteger(value) && value >= 0 ? value : 0)

/** One of `generate`'s `toolCalls` as an OpenAI tool call. */
function wireCall(call, index) {
  const name = call?.name
  if (typeof name !== "string") throw refused(`generate: toolCalls[${index}] needs a string name`)
  const args = call.arguments
  return {
    id: typeof call.id === "string" ? call.id : `call_${index}`,
    type: "function",
    function: { name, arguments: typeof args === "string" ? args : args == null ? "{}" : JSON.stringify(args) },
  }
}

/** `generate`'s answer as the OpenAI response a server would have sent. */
function openAiResponse(answer) {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw refused(`generate must return {content} or {toolCalls}, got ${typeName(answer)}`)
  }
  const message = { role: "assistant" }
  const calls = answer.toolCalls ?? []
  if (!Array.isArray(calls)) throw refused(`generate: toolCalls must be an array, got ${typeName(calls)}`)
  if (calls.length === 0) {
    const content = answer.content ?? ""
    if (typeof content !== "string") throw refused(`generate: content must be a string, got ${typeName(content)}`)
    message.content = content
  } else {
    message.tool_calls = calls.map(wireCall)
  }
  const usage = answer.usage
  const [prompt, completion] = [tokens(usage?.promptTokens), tokens(usage?.completionTokens)]
  const total = Number.isInteger(usage?.totalTokens) && usage.totalTokens >= 0 ? usage.totalTokens : prompt + completion
  return {
    choices: [{ index: 0, message, finish_reason: calls.length === 0 ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total },
  }
}

/** Answers one request of the module with `generate`. */
async function answer(generate, init) {
  const text = typeof init?.body === "string" ? init.body : ""
  let body
  let request
  try {
    body = JSON.parse(text)
    // Its own copy for `generate`'s request, so changing one does not change the other.
    const copy = JSON.parse(text)
    request = { messages: "messages" in copy ? copy.messages : [] }
    if ("tools" in copy) request.tools = copy.tools
    request.model = copy.model ?? null
    request.body = body
  } catch (thrown) {
    throw refused(`the request body is not JSON: ${errorText(thrown)}`)
  }
  if (body.stream === true) {
    throw refused(NO_STREAMING)
  }
  let out
  try {
    out = await generate(request)
  } catch (thrown) {
    throw refused(errorText(thrown))
  }
  const response = JSON.stringify(openAiResponse(json(out)))
  return new Response(response, { status: 200, headers: { "content-type": "application/json" } })
}

/**
 * The `createInProcessClient` of one module: `createClient` is that module's.
 *
 * ```js
 * const createInProcessClient = inProcessWith(createClient)
 * ```
 */
export function inProcessWith(createClient) {
  /**
   * A client whose model runs in this process: `generate({messages, tools, model, body})`
   * returns `{content}` or `{toolCalls: [{id?, name, arguments}]}` (plus optional `usage`).
   * Messages are OpenAI-shaped. Failures of `generate` are final.
   *
   * ```js
   * const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: "Hello!" }) })
   * ```
   */
  return function createInProcessClient(options) {
    const generate = options !== null && (typeof options === "object" || typeof options === "function") ? options.generate : undefined
    if (generate === undefined || generate === null) throw invalid(NEEDS_GENERATE)
    if (typeof generate !== "function") throw invalid(`${NEEDS_GENERATE}, got ${typeName(generate)}`)
    // The caller's options (own and inherited, as the module reads them) under the transport's.
    const forwarded = Object.assign(Object.create(options), {
      baseUrl: BASE_URL,
      style: "openai",
      fetch: (url, init) => answer(generate, init),
      // No wire, so no transient failure to ride out: whatever `generate` throws throws again.
      retries: options.retries === undefined ? 0 : options.retries,
    })
    try {
      return createClient(forwarded)
    } catch (thrown) {
      if (typeof thrown?.message === "string") thrown.message = thrown.message.replace(/^createClient: /, `${WHAT}: `)
      throw thrown
    }
  }
}
