// The built-in demo model: a scripted `generate` (OpenAI-shaped messages in, `{content}` or
// `{toolCalls}` out, the same contract as createInProcessClient's) that runs in this page. It is
// served to the client through its `fetch` option as an OpenAI-style endpoint that streams
// Server-Sent Events, so the page exercises `client.stream()` and the real SSE decoder with no
// network at all.

const HELP =
  "I'm the built-in demo model: scripted, running in this page, no network. Try one of these: " +
  "“Pay Ada 42 EUR” (an approval), “Book a table at Chez Ada” (a form), “What's on my calendar today?” " +
  "(a sign-in that leaves this page and comes back), “Plan a weekend trip” (a question), " +
  "“What is 6 times 7?”, “Roll 3 dice” or “What time is it in Tokyo?”."

const OPS = { "+": "add", plus: "add", "-": "subtract", minus: "subtract", "*": "multiply", x: "multiply", times: "multiply", "/": "divide", "divided by": "divide" }
const CITIES = { tokyo: "Asia/Tokyo", paris: "Europe/Paris", london: "Europe/London", "new york": "America/New_York", sydney: "Australia/Sydney" }

function call(name, args) {
  return { toolCalls: [{ id: `call_${crypto.randomUUID().slice(0, 8)}`, name, arguments: args }] }
}

/** What the model does with a new user message. */
function route(text) {
  const lower = text.toLowerCase()
  if (/\b(pay|send|transfer)\b/.test(lower)) {
    const amount = Number(text.match(/\d+(?:[.,]\d+)?/)?.[0]?.replace(",", ".") ?? 10)
    const to = text.match(/\b(?:pay|to)\s+([A-Z][\p{L}-]*)/u)?.[1] ?? text.match(/pay\s+(\p{L}+)/iu)?.[1] ?? "Bob"
    const currency = /\$|usd|dollar/i.test(text) ? "USD" : /£|gbp|pound/i.test(text) ? "GBP" : "EUR"
    return call("transfer_money", { to: to[0].toUpperCase() + to.slice(1), amount, currency })
  }
  if (/\b(book|table|reserv\w*|dinner|restaurant)\b/.test(lower)) {
    const at = text.match(/\bat\s+([A-Z][\p{L}'’ -]+?)(?:\s+(?:for|tonight|tomorrow|on)\b|[.!?]|$)/u)?.[1]?.trim()
    return call("book_table", { restaurant: at ?? "Chez Ada" })
  }
  if (/\b(calendar|schedule|meetings?|agenda)\b/.test(lower)) return call("connect_calendar", {})
  if (/\b(trip|travel|weekend|holiday|vacation|getaway)\b/.test(lower)) {
    return call("ask_user", { question: "Where would you like to spend the weekend?", options: ["Lisbon", "Kyoto", "Reykjavík"] })
  }
  const math = lower.match(/(-?\d+(?:\.\d+)?)\s*(\+|plus|-|minus|\*|x|times|\/|divided by)\s*(-?\d+(?:\.\d+)?)/)
  if (math) return call("calculator", { a: Number(math[1]), b: Number(math[3]), op: OPS[math[2]] })
  if (/\b(roll|dice|die)\b/.test(lower)) {
    return call("roll_dice", { count: Number(lower.match(/(\d+)\s*(?:dice|d\d)/)?.[1] ?? 2), sides: 6 })
  }
  if (/\b(time|clock|date)\b/.test(lower)) {
    const city = Object.keys(CITIES).find((c) => lower.includes(c))
    return call("clock", city ? { timeZone: CITIES[city] } : {})
  }
  return { content: HELP }
}

const refused = (output) => /^(declined\/expired|unresolved): /.test(output)

/** What the model says once a tool's result is in. */
function afterTool(name, args, output) {
  if (name === "transfer_money") {
    if (refused(output)) {
      return `You declined the transfer, so I did not send anything: ${args.amount} ${args.currency ?? "EUR"} are still in your account and ${args.to} was not contacted. If you'd like to send a different amount, or to someone else, just tell me.`
    }
    return `Done. ${output} The money usually arrives within a minute.`
  }
  if (name === "book_table") {
    if (refused(output)) return "No problem, I haven't booked anything. Tell me when you want to try another time or place."
    return `Your table is booked! ${output} I'll remind you an hour before.`
  }
  if (name === "connect_calendar") {
    if (refused(output)) return "The sign-in was cancelled, so I can't read your calendar. You can connect DemoCal any time."
    const events = output.replace(/^Connected to DemoCal\. Today: /, "").split("; ")
    return `You're connected to DemoCal. Here is your day:\n${events.map((e) => `• ${e.replace(/\.$/, "")}`).join("\n")}\nYour afternoon is free after the design review.`
  }
  if (name === "ask_user") {
    if (refused(output)) return "No worries. Tell me whenever you've picked a place and I'll plan the weekend."
    const place = output.replace(/^The user answered: /, "")
    return `${place}, great choice! Here's a relaxed weekend: Saturday morning, a walking tour of the old town and a long lunch; in the afternoon, a museum or a viewpoint at sunset. Sunday, a market in the morning and a slow afternoon before heading home. Want me to book a table for Saturday night?`
  }
  if (name === "calculator") {
    const sign = { add: "+", subtract: "−", multiply: "×", divide: "÷" }[args.op]
    return output.startsWith("division") ? `I can't do that: ${output}.` : `${args.a} ${sign} ${args.b} = ${output}`
  }
  if (name === "roll_dice") {
    const { rolls, total } = JSON.parse(output)
    return `You rolled ${rolls.join(", ")}: ${total} in total.`
  }
  if (name === "clock") return `It is ${output}.`
  return `The ${name} tool said: ${output}`
}

/** An image's pixel size from its first bytes (PNG and GIF headers), when it says. */
function pixels(bytes) {
  const at = (i) => bytes.charCodeAt(i)
  if (bytes.startsWith("\x89PNG")) return [(at(16) << 24) | (at(17) << 16) | (at(18) << 8) | at(19), (at(20) << 24) | (at(21) << 16) | (at(22) << 8) | at(23)]
  if (bytes.startsWith("GIF8")) return [at(6) | (at(7) << 8), at(8) | (at(9) << 8)]
  return undefined
}

/** What the demo model can tell of an image it was sent (an OpenAI `image_url` block). */
function describeImage(block) {
  const [, mime, data] = block.image_url.url.match(/^data:([^;,]+);base64,(.*)$/) ?? []
  if (!data) return `an image at ${block.image_url.url}`
  const size = Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0)
  const dims = pixels(atob(data.slice(0, 44)))
  return `${mime}, ${size.toLocaleString("en")} bytes${dims ? `, ${dims[0]}×${dims[1]} pixels` : ""}`
}

/** The scripted model: the in-process `generate` contract. */
export function generate({ messages }) {
  const last = messages.at(-1)
  const images = Array.isArray(last?.content) ? last.content.filter((b) => b.type === "image_url") : []
  if (last?.role === "user" && images.length) {
    const seen = images.map(describeImage)
    return { content: `I see ${images.length === 1 ? "an image" : `${images.length} images`}: ${seen.join("; ")}. (The demo model reads only an image's type and size; a real model sees it.)` }
  }
  if (last?.role !== "tool") return route(String(last?.content ?? ""))
  const turn = messages.findLast((m) => m.role === "assistant" && m.tool_calls?.length)
  const replies = (turn?.tool_calls ?? []).map((c) => {
    const result = messages.find((m) => m.role === "tool" && m.tool_call_id === c.id)
    return afterTool(c.function.name, JSON.parse(c.function.arguments || "{}"), String(result?.content ?? ""))
  })
  return { content: replies.join("\n\n") }
}

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new DOMException("aborted", "AbortError"))), { once: true })
  })

/** The answer as OpenAI stream chunks: text word by word, or the tool calls in one delta. */
function chunks(answer) {
  const frame = (delta, finish = null) => ({ id: "demo", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })
  if (answer.toolCalls) {
    const calls = answer.toolCalls.map((c, index) => ({ index, id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }))
    return [frame({ role: "assistant", tool_calls: calls }), frame({}, "tool_calls")]
  }
  const words = answer.content.match(/\S+\s*|\s+/g) ?? []
  return [frame({ role: "assistant", content: "" }), ...words.map((w) => frame({ content: w })), frame({}, "stop")]
}

function completion(answer) {
  const message = answer.toolCalls
    ? { role: "assistant", content: null, tool_calls: chunks(answer)[0].choices[0].delta.tool_calls.map(({ index, ...c }) => c) }
    : { role: "assistant", content: answer.content }
  const finish = answer.toolCalls ? "tool_calls" : "stop"
  return { id: "demo", object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
}

/**
 * A `fetch` for createClient({style: "openai"}): answers from `generate`, streaming when the
 * body asks to (`delayMs` between words), as JSON otherwise.
 */
export function demoFetch({ delayMs = 16 } = {}) {
  return async (_url, init) => {
    const body = JSON.parse(init.body)
    const answer = await generate({ messages: body.messages })
    if (!body.stream) return new Response(JSON.stringify(completion(answer)), { headers: { "content-type": "application/json" } })
    const encoder = new TextEncoder()
    const signal = init.signal
    const stream = new ReadableStream({
      async start(controller) {
        try {
          for (const chunk of chunks(answer)) {
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`))
            if (chunk.choices[0].delta.content) await sleep(delayMs, signal)
          }
          const usage = { id: "demo", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`))
          controller.close()
        } catch (error) {
          controller.error(error)
        }
      },
    })
    return new Response(stream, { headers: { "content-type": "text/event-stream" } })
  }
}
