// The scripted OpenAI-compatible endpoint of the sub-agent scenarios, as an in-process `fetch`
// (a real `Response`, no socket). Who is asking is read from the request: the first user
// message is the agent's prompt. Every answer depends on the tool results sent back, so a
// framework that loses, reorders or mixes up a child's result ends with a wrong final text.
//
//   fan-out: "fan [bench-agents]" → 8 parallel `task` calls {agent: "worker", prompt: "job <i>"};
//            each child answers "result <i>"; the lead then answers "fan: result 0|…|result 7".
//   chain:   "chain 0" → task {agent: "link1", prompt: "chain 1"} → … → "chain 4" answers "leaf";
//            each level answers "up<n>(<its child's result>)": "up0(up1(up2(up3(leaf))))".

export const MODEL = "gpt-4o-mini"
export const BASE_URL = "http://bench.agents.local/v1"
export const FAN = 8
export const DEPTH = 4

export const SHAPES = {
  fanout: { prompt: "fan [bench-agents]", expected: `fan: ${Array.from({ length: FAN }, (_, i) => `result ${i}`).join("|")}`, childRuns: FAN, modelCalls: FAN + 2 },
  chain: { prompt: "chain 0", expected: `${Array.from({ length: DEPTH }, (_, i) => `up${i}(`).join("")}leaf${")".repeat(DEPTH)}`, childRuns: DEPTH, modelCalls: 2 * DEPTH + 1 },
}

let seq = 0
function completion(message, finish) {
  return JSON.stringify({
    id: `chatcmpl-agents-${++seq}`,
    object: "chat.completion",
    created: 1700000000,
    model: MODEL,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  })
}
const answer = (text) => completion({ role: "assistant", content: text }, "stop")
const taskCalls = (calls) =>
  completion(
    {
      role: "assistant",
      content: null,
      tool_calls: calls.map(([agent, prompt], i) => ({ id: `call_${i}`, type: "function", function: { name: "task", arguments: JSON.stringify({ agent, prompt }) } })),
    },
    "tool_calls",
  )

const textOf = (content) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => p.text ?? "").join("") : "")

/** The response text for one request body (a JSON string). */
export function respondAgents(body) {
  const { messages } = JSON.parse(body)
  const prompt = textOf(messages.find((m) => m.role === "user")?.content).trim()
  const results = messages.filter((m) => m.role === "tool")
  const resultFor = (id) => textOf(results.find((m) => m.tool_call_id === id)?.content)
  if (prompt === SHAPES.fanout.prompt) {
    if (results.length === 0) return taskCalls(Array.from({ length: FAN }, (_, i) => ["worker", `job ${i}`]))
    return answer(`fan: ${Array.from({ length: FAN }, (_, i) => resultFor(`call_${i}`)).join("|")}`)
  }
  let m = /^job (\d+)$/.exec(prompt)
  if (m) return answer(`result ${m[1]}`)
  m = /^chain (\d+)$/.exec(prompt)
  if (m) {
    const n = Number(m[1])
    if (n === DEPTH) return answer("leaf")
    if (results.length === 0) return taskCalls([[`link${n + 1}`, `chain ${n + 1}`]])
    return answer(`up${n}(${resultFor("call_0")})`)
  }
  return answer(`MISMATCH: unknown prompt ${JSON.stringify(prompt).slice(0, 80)}`)
}

/** The in-process `fetch` of the endpoint; counts the model calls in `counter.calls`. */
export function agentsFetch(counter = { calls: 0 }) {
  const headers = { "content-type": "application/json" }
  return async function fetch(input, init) {
    const body = init?.body !== undefined ? (typeof init.body === "string" ? init.body : await new Response(init.body).text()) : await input.text()
    counter.calls++
    return new Response(respondAgents(body), { status: 200, headers })
  }
}
