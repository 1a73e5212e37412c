// The agents page's scripted team model: one OpenAI-style chat-completions endpoint served
// through the runtime's `fetch` option, answering by model name (each agent has its own), so a
// lead, a researcher and a writer run in this page with no network. Every model call is counted
// (`onCall(model)`), which is how the page shows that no finished turn runs again.

/** The model of each agent in the page's registry. */
export const MODELS = { lead: "demo-lead", researcher: "demo-researcher", writer: "demo-writer" }

/** The pages the researcher's `search` tool "finds" (no network: a fixed index). */
export const INDEX = [
  { url: "https://component-model.bytecodealliance.org/", title: "The WebAssembly Component Model" },
  { url: "https://webassembly.org/roadmap/", title: "WebAssembly feature roadmap" },
]

const toolMessages = (messages) => messages.filter((m) => m.role === "tool")
const userText = (messages) => String(messages.find((m) => m.role === "user")?.content ?? "")
const declined = (output) => /^(declined\/expired|unresolved): /.test(output)

/** The topic of a prompt such as "Write a brief on X" (else the whole prompt). */
export function topicOf(prompt) {
  const text = String(prompt).trim().replace(/[.!?]+$/, "")
  return text.match(/\b(?:on|about)\s+(.+)$/i)?.[1] ?? text
}

let calls = 0
function call(...tools) {
  return { toolCalls: tools.map(([name, args]) => ({ id: `call_${++calls}`, name, arguments: args })) }
}

/** The lead: delegates research and writing at once, then assembles the brief. */
function lead(messages) {
  const topic = topicOf(userText(messages))
  const results = toolMessages(messages)
  if (results.length === 0) {
    return call(
      ["task", { agent: "researcher", prompt: `Find a reliable source on ${topic}` }],
      ["task", { agent: "writer", prompt: `Draft a two-sentence introduction to ${topic}` }],
    )
  }
  const [research, draft] = results.map((m) => String(m.content))
  return { content: `Brief: ${topic}\n${draft}\n${research}` }
}

/** The researcher: searches, reads the first hit (fetch_page asks first), reports. */
function researcher(messages) {
  const results = toolMessages(messages)
  if (results.length === 0) return call(["search", { query: topicOf(userText(messages)) }])
  if (results.length === 1) {
    const url = JSON.parse(String(results[0].content))[0]?.url ?? INDEX[0].url
    return call(["fetch_page", { url }])
  }
  const page = String(results[1].content)
  if (declined(page)) return { content: "Research: the page was not read (fetching it was declined); the search results are all I have." }
  return { content: `Research: ${page}` }
}

/** The writer: one draft, no tools. */
function writer(messages) {
  const topic = topicOf(userText(messages).replace(/^Draft a two-sentence introduction to /, ""))
  return { content: `Draft: ${topic} let programs written in different languages share typed interfaces. Each component runs in its own sandbox.` }
}

const AGENTS = { [MODELS.lead]: lead, [MODELS.researcher]: researcher, [MODELS.writer]: writer }

function completion(answer) {
  const message = answer.toolCalls
    ? {
        role: "assistant",
        content: null,
        tool_calls: answer.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      }
    : { role: "assistant", content: answer.content }
  return {
    id: "demo-team",
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: answer.toolCalls ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  }
}

/** A `fetch` for the runtime's `llm` (style `"openai"`): each request answered by its model's script. */
export function teamFetch({ onCall } = {}) {
  return async (_url, init) => {
    const body = JSON.parse(init.body)
    const script = AGENTS[body.model]
    if (script === undefined) {
      return new Response(JSON.stringify({ error: { message: `no such model: ${body.model}` } }), { status: 404, headers: { "content-type": "application/json" } })
    }
    onCall?.(body.model)
    return new Response(JSON.stringify(completion(script(body.messages))), { headers: { "content-type": "application/json" } })
  }
}
