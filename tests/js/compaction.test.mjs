// agents.compactor and agents.estimateTokens (SPEC §7F): a beforeLLM hook that, over budget,
// replaces the older body of the transcript with one summary system message and keeps a tail
// starting at a real user turn. The reference's compaction tests (C1–C6 and the two dialect
// tests), the shared conformance fixture, and runs through the client against the stub server.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import * as full from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { agents, createClient, createInProcessClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startAnthropicStub, startOpenAIStub, openai, anthropic } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, rejection, thrown, prng } from "./support/helpers.mjs"

clearKeyEnv()
const require = createRequire(import.meta.url)
const { compactor, estimateTokens } = agents

const SUMMARY_PREFIX = "[Summary of earlier conversation]\n"
const FLUSH_REMINDER =
  "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now — the earlier transcript is about to be summarized."

const fixturePath = fileURLToPath(new URL("../../../shared/conformance/compaction/fixture.json", import.meta.url))
const fixture = existsSync(fixturePath) ? JSON.parse(readFileSync(fixturePath, "utf8")) : undefined

/** The fixture's transcript: the system prompt, then `turns` groups of user, tool call, tool result, answer. */
function transcript(turns, systemPrompt = "You are Ava. SOUL.") {
  const messages = [{ role: "system", content: systemPrompt }]
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `question ${i} ${"pad ".repeat(40)}` })
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "lookup", arguments: "{}" } }] })
    messages.push({ role: "tool", tool_call_id: `c${i}`, content: `result ${i} ${"data ".repeat(40)}` })
    messages.push({ role: "assistant", content: `answer ${i}` })
  }
  return messages
}

const summarize = (older) => `summarized ${older.length} messages`
const event = (messages) => ({ messages, tools: [], model: "m", turn: 0 })

/** Every OpenAI tool message is preceded by an assistant message carrying its call id. */
function assertOpenAIPairs(messages) {
  messages.forEach((m, i) => {
    if (m.role !== "tool") return
    const parent = messages.slice(0, i).some((p) => p.role === "assistant" && (p.tool_calls ?? []).some((c) => c.id === m.tool_call_id))
    assert.ok(parent, `tool message ${i} (${m.tool_call_id}) is orphaned`)
  })
}

/** Every Anthropic tool_result block is preceded by the tool_use block it answers. */
function assertAnthropicPairs(messages) {
  const blocks = (m) => (Array.isArray(m.content) ? m.content : [])
  messages.forEach((m, i) => {
    for (const b of blocks(m)) {
      if (b?.type !== "tool_result") continue
      const parent = messages.slice(0, i).some((p) => blocks(p).some((u) => u?.type === "tool_use" && u.id === b.tool_use_id))
      assert.ok(parent, `tool_result ${b.tool_use_id} at ${i} is orphaned`)
    }
  })
}

// --- the reference's tests -----------------------------------------------------------------

test("C1: at or below budget the hook returns nothing", async () => {
  const messages = transcript(3)
  const before = JSON.stringify(messages)
  assert.equal(await compactor({ maxTokens: 100_000, summarize })(event(messages)), undefined)
  // Exactly at the budget is still a no-op.
  assert.equal(await compactor({ maxTokens: estimateTokens(messages), summarize })(event(messages)), undefined)
  assert.equal(JSON.stringify(messages), before, "the transcript is not touched")
})

test("C2: over budget the head is summarized and a tail kept", async () => {
  const messages = transcript(30)
  const out = await compactor({ maxTokens: 2000, keepTail: 800, summarize })(event(messages))
  assert.ok(out, "compacts over budget")
  assert.ok(estimateTokens(out.messages) < estimateTokens(messages))
  assert.ok(out.messages.some((m) => m.role === "system" && m.content.startsWith(SUMMARY_PREFIX)))
})

test("C3: no tool result is orphaned and the tail starts at a user turn", async () => {
  const out = await compactor({ maxTokens: 2000, keepTail: 800, summarize })(event(transcript(30)))
  assertOpenAIPairs(out.messages)
  assert.equal(out.messages.find((m) => m.role !== "system").role, "user")
})

test("C4: the leading system prompt is kept verbatim (keepTail defaults to maxTokens / 2)", async () => {
  const messages = transcript(30)
  const out = await compactor({ maxTokens: 2000, summarize })(event(messages))
  assert.equal(out.messages[0], messages[0], "the same object, first")
  assert.deepEqual(out.messages[0], { role: "system", content: "You are Ava. SOUL." })
  // The default keepTail is floor(2000 / 2): the same split as keepTail: 1000.
  assert.deepEqual(out, await compactor({ maxTokens: 2000, keepTail: 1000, summarize })(event(messages)))
})

test("C5: flushToMemory puts the reminder after the summary, before the tail", async () => {
  const out = await compactor({ maxTokens: 2000, keepTail: 800, summarize, flushToMemory: true })(event(transcript(30)))
  assert.equal(out.messages[1].content.startsWith(SUMMARY_PREFIX), true)
  assert.deepEqual(out.messages[2], { role: "system", content: FLUSH_REMINDER })
  assert.equal(out.messages[3].role, "user")
  const without = await compactor({ maxTokens: 2000, keepTail: 800, summarize })(event(transcript(30)))
  assert.ok(!without.messages.some((m) => m.content === FLUSH_REMINDER), "off by default")
})

test("C6: wired as beforeLLM, a run goes on past a compaction to its answer", async () => {
  // The model calls `pad` six times (each result ~300 tokens), then answers, saying whether it
  // saw a summary. With the prompt the only user turn, no tail can start after it: each
  // compaction summarizes everything after the system prompt.
  let calls = 0
  const generate = async ({ messages }) => {
    const compacted = messages.some((m) => typeof m.content === "string" && m.content.startsWith("[Summary"))
    if (calls >= 6) return { content: `final (compacted=${compacted})` }
    return { toolCalls: [{ id: `c${calls++}`, name: "pad", arguments: "{}" }] }
  }
  const pad = defineTool({ name: "pad", description: "pads", run: async () => "x ".repeat(600) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [pad] })
  const client = createInProcessClient({
    model: "m", maxTurns: 20, generate, systemPrompt: "You are Ava. SOUL.",
    hooks: { beforeLLM: compactor({ maxTokens: 600, keepTail: 250, summarize }) },
  })
  const r = await client.run("start", { toolkit })
  assert.equal(r.status, "done")
  assert.equal(r.text, "final (compacted=true)")
  assert.ok(estimateTokens(r.messages) < 4000, `bounded: ${estimateTokens(r.messages)}`)
  assert.deepEqual(r.messages[0], { role: "system", content: "You are Ava. SOUL." })
})

test("Anthropic: a user message carrying tool_result blocks is not a tail boundary", async () => {
  const msgs = [
    { role: "system", content: "soul" },
    { role: "user", content: "q1 " + "x".repeat(400) },
    { role: "assistant", content: "a1 " + "x".repeat(400) },
    { role: "user", content: "q2" },
    { role: "assistant", content: [{ type: "tool_use", id: "tu_1", name: "echo", input: { v: 1 } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", content: "echoed" }] },
    { role: "assistant", content: "done" },
  ]
  const out = await compactor({ maxTokens: 50, keepTail: 20, summarize: async () => "SUMMARY" })({ ...event(msgs), turn: 1 })
  const compacted = { messages: 2, tokens: estimateTokens(msgs.slice(1, 3)) }
  assert.deepEqual(out.messages, [msgs[0], { role: "system", content: SUMMARY_PREFIX + "SUMMARY", metadata: { compacted } }, ...msgs.slice(3)])
  assertAnthropicPairs(out.messages)
})

test("OpenAI: every user message is a boundary", async () => {
  const msgs = [
    { role: "system", content: "soul" },
    { role: "user", content: "q1 " + "x".repeat(400) },
    { role: "assistant", content: null, tool_calls: [{ id: "tc_1", type: "function" }] },
    { role: "tool", tool_call_id: "tc_1", content: "echoed" },
    { role: "user", content: "q2" },
    { role: "assistant", content: "done" },
  ]
  const out = await compactor({ maxTokens: 50, keepTail: 20, summarize: async () => "SUMMARY" })({ ...event(msgs), turn: 1 })
  const compacted = { messages: 3, tokens: estimateTokens(msgs.slice(1, 4)) }
  assert.deepEqual(out.messages, [msgs[0], { role: "system", content: SUMMARY_PREFIX + "SUMMARY", metadata: { compacted } }, ...msgs.slice(4)])
  assertOpenAIPairs(out.messages)
})

// --- the shared conformance fixture --------------------------------------------------------

test("conformance: shared/conformance/compaction/fixture.json", async (t) => {
  if (fixture === undefined) return t.skip("../shared/conformance/compaction is absent")
  const { input, options, expect } = fixture
  const messages = transcript(input.generator.userTurns, input.systemPrompt)
  // The generator's group, with <i> and the repeats filled in, is what transcript() builds.
  const group = JSON.stringify(input.generator.group)
    .replaceAll("<i>", "7").replace("<repeat 'pad ' 40 times>", "pad ".repeat(40)).replace("<repeat 'data ' 40 times>", "data ".repeat(40))
  assert.equal(JSON.stringify(messages.slice(1 + 4 * 7, 1 + 4 * 8)), group)
  const seen = []
  const hook = compactor({ maxTokens: options.maxTokens, keepTail: options.keepTail, summarize: (older) => (seen.push(older), summarize(older)) })
  const out = await hook(event(messages))
  assert.equal(out !== undefined, expect.compacts)
  assert.equal(estimateTokens(out.messages) < estimateTokens(messages), expect.resultSmallerThanInput)
  const summary = out.messages.find((m) => m.role === "system" && m.content.startsWith(expect.summaryContentPrefix))
  assert.equal(summary !== undefined, expect.summarySystemMessagePresent)
  assert.equal(expect.summaryContentPrefix, SUMMARY_PREFIX)
  // The summary names the count of the messages between the system prompt and the tail.
  const tail = out.messages.slice(2)
  assert.equal(seen.length, 1)
  assert.equal(seen[0].length, messages.length - 1 - tail.length)
  assert.equal(summary.content, `${SUMMARY_PREFIX}summarized ${seen[0].length} messages`)
  assert.deepEqual(tail, messages.slice(messages.length - tail.length), "the tail is the transcript's end, unchanged")
  assert.ok(estimateTokens(tail) <= options.keepTail, "the tail fits keepTail")
  assert.ok(estimateTokens(messages.slice(messages.length - tail.length - 4)) > options.keepTail, "and is the longest that does")
  assert.equal(out.messages[0].role, expect.leadingSystemMessage.role)
  assert.ok(out.messages[0].content.includes(expect.leadingSystemMessage.contentContains))
  assert.equal(out.messages.find((m) => m.role !== "system").role, expect.firstNonSystemMessageRole)
  assertOpenAIPairs(out.messages)
  // flushToMemory: a system message about the memory tool, before the retained tail.
  const flushed = await compactor({ maxTokens: options.maxTokens, keepTail: options.keepTail, summarize, flushToMemory: true })(event(messages))
  const at = flushed.messages.findIndex((m) => m.role === "system" && m.content.includes("memory tool"))
  assert.ok(at > 0 && at < flushed.messages.findIndex((m) => m.role !== "system"))
  // The fixture's note: below maxTokens the compactor is a no-op.
  assert.equal(await hook(event(transcript(3, input.systemPrompt))), undefined)
})

// --- beyond the reference ------------------------------------------------------------------

test("estimateTokens: per message ceil(length of its JSON text / 4), summed", () => {
  const a = { role: "user", content: "hi" } // {"role":"user","content":"hi"}: 29 characters
  const b = { role: "assistant", content: "é".repeat(7) } // UTF-16 length, as JSON.stringify(...).length
  assert.equal(estimateTokens([a]), 8)
  assert.equal(estimateTokens([a, b]), 8 + Math.ceil(JSON.stringify(b).length / 4))
  assert.equal(estimateTokens([a, a]), 16, "summed per message, not over the whole list")
  assert.equal(estimateTokens([]), 0)
  assertCode(thrown(() => estimateTokens("nope")), "invalid_argument")
})

test("tool-pair safety holds at every budget, in both dialects", async () => {
  // OpenAI: the fixture's transcript; Anthropic: the same turns with tool_use / tool_result blocks.
  const oa = transcript(12)
  const an = [{ role: "system", content: "soul" }]
  for (let i = 0; i < 12; i++) {
    an.push({ role: "user", content: `question ${i} ${"pad ".repeat(20)}` })
    an.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "lookup", input: {} }] })
    an.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "data ".repeat(30) }] })
    an.push({ role: "assistant", content: [{ type: "text", text: `answer ${i}` }] })
  }
  for (const [messages, check] of [[oa, assertOpenAIPairs], [an, assertAnthropicPairs]]) {
    for (let keepTail = 0; keepTail <= 100; keepTail += 3) {
      const out = await compactor({ maxTokens: 100, keepTail, summarize })(event(messages))
      assert.ok(out)
      check(out.messages)
      const first = out.messages.find((m) => m.role !== "system")
      assert.equal(first.role, "user")
      assert.equal(typeof first.content, "string", "a real user turn, not a tool-result carrier")
    }
  }
})


/** A random transcript of `turns` user turns, each with 0–2 rounds of 1–3 tool calls, in `style`. */
function randomTranscript(random, style) {
  const pick = (n) => Math.floor(random() * n)
  const pad = () => "w ".repeat(1 + pick(60))
  const out = style === "openai" ? [{ role: "system", content: `soul ${pad()}` }] : []
  let id = 0
  for (let turn = 0, turns = 1 + pick(8); turn < turns; turn++) {
    out.push({ role: "user", content: `question ${turn} ${pad()}` })
    for (let round = 0, rounds = pick(3); round < rounds; round++) {
      const ids = Array.from({ length: 1 + pick(3) }, () => `c${id++}`)
      if (style === "openai") {
        out.push({ role: "assistant", content: null, tool_calls: ids.map((c) => ({ id: c, type: "function", function: { name: "lookup", arguments: "{}" } })) })
        for (const c of ids) out.push({ role: "tool", tool_call_id: c, content: pad() })
      } else {
        out.push({ role: "assistant", content: ids.map((c) => ({ type: "tool_use", id: c, name: "lookup", input: {} })) })
        out.push({ role: "user", content: ids.map((c) => ({ type: "tool_result", tool_use_id: c, content: pad() })) })
      }
    }
    out.push({ role: "assistant", content: style === "openai" ? `answer ${pad()}` : [{ type: "text", text: `answer ${pad()}` }] })
  }
  return out
}

/** Every call id in `messages` has exactly one result after it, and every result a call before it. */
function assertBalanced(messages, style) {
  const calls = new Map()
  const results = new Map()
  messages.forEach((m, i) => {
    const blocks = Array.isArray(m.content) ? m.content : []
    const callIds = style === "openai" ? (m.tool_calls ?? []).map((c) => c.id) : blocks.filter((b) => b.type === "tool_use").map((b) => b.id)
    const resultIds = style === "openai" ? (m.role === "tool" ? [m.tool_call_id] : []) : blocks.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)
    for (const c of callIds) calls.set(c, i)
    for (const r of resultIds) results.set(r, [...(results.get(r) ?? []), i])
  })
  for (const [c, at] of calls) {
    const found = results.get(c) ?? []
    assert.equal(found.length, 1, `call ${c} has ${found.length} results`)
    assert.ok(found[0] > at, `call ${c}'s result comes before it`)
  }
  for (const r of results.keys()) assert.ok(calls.has(r), `result ${r} answers no call`)
}

test("property: over random transcripts and budgets, in both dialects, tool pairs stay whole and the system prompt byte-identical", async () => {
  for (const style of ["openai", "anthropic"]) {
    for (let seed = 1; seed <= 300; seed++) {
      const random = prng(seed)
      const messages = randomTranscript(random, style)
      const total = agents.estimateTokens(messages)
      const maxTokens = 1 + Math.floor(random() * total)
      const keepTail = Math.floor(random() * (maxTokens + 1))
      const before = JSON.stringify(messages)
      const out = await compactor({ maxTokens, keepTail, summarize })(event(messages))
      assert.equal(JSON.stringify(messages), before, `seed ${seed}: the input is never changed`)
      if (out === undefined) continue
      const at = `${style} seed ${seed} (maxTokens ${maxTokens}, keepTail ${keepTail})`
      if (style === "openai") assert.equal(JSON.stringify(out.messages[0]), JSON.stringify(messages[0]), `${at}: the system prompt`)
      assertBalanced(out.messages, style)
      const lead = style === "openai" ? 2 : 1
      const tail = out.messages.slice(lead)
      assert.deepEqual(tail, messages.slice(messages.length - tail.length), `${at}: the tail is the transcript's own suffix`)
      if (tail.length > 0) assert.equal(typeof tail[0].content, "string", `${at}: the tail starts at a real user turn`)
    }
  }
})

test("property: the no-op check decides as the exact estimate does, whatever the transcript holds", async () => {
  // The check reads bounds from one JSON text per run of 64 messages; summaries with metadata,
  // items with no JSON text, a toJSON of their own and transcripts of several runs must still
  // give the decision of the exact per-message sum, and a compaction the same messages.
  const summary = (i) => ({ role: "system", content: `${SUMMARY_PREFIX}s${i}`, metadata: { compacted: { messages: 2, tokens: 30 } } })
  const odd = [undefined, "a string item", 42, null, { role: "user", content: "own toJSON", toJSON: () => ({ role: "user", content: "x".repeat(90) }) }]
  for (let seed = 1; seed <= 120; seed++) {
    const random = prng(seed)
    const messages = randomTranscript(random, seed % 2 === 0 ? "openai" : "anthropic")
    while (messages.length < 20 + Math.floor(random() * 200)) messages.push(...randomTranscript(random, "openai").slice(1))
    if (random() < 0.5) messages.splice(1 + Math.floor(random() * (messages.length - 1)), 0, summary(seed))
    if (random() < 0.3) messages.splice(1 + Math.floor(random() * (messages.length - 1)), 0, odd[seed % odd.length])
    const total = messages.reduce((sum, m) => sum + agents.estimateTokens([m]), 0)
    assert.equal(agents.estimateTokens(messages), total)
    for (const maxTokens of [total - 200, total - 3, total - 1, total, total + 1, total + 3, total + 200].filter((n) => n > 0)) {
      const out = await compactor({ maxTokens, summarize })(event(messages))
      if (total <= maxTokens) assert.equal(out, undefined, `seed ${seed}: ${total} tokens under maxTokens ${maxTokens} is a no-op`)
      else assert.ok(out === undefined || out.messages[out.messages.length - 1] === messages.at(-1), `seed ${seed}: ${total} over ${maxTokens}`)
      if (total > maxTokens) {
        // Over budget, the same compaction as a hook given the exact estimate as its own counter.
        const exact = await compactor({ maxTokens, summarize, countTokens: (list) => list.reduce((sum, m) => sum + agents.estimateTokens([m]), 0) })(event(messages))
        assert.equal(JSON.stringify(out), JSON.stringify(exact), `seed ${seed}, maxTokens ${maxTokens}`)
      }
    }
  }
})

test("with no boundary after the first body message the whole body is summarized (an empty tail)", async () => {
  // A tail starting right after the system prompt would leave nothing to summarize, so the
  // first body message is never a boundary; with no later one the tail is empty.
  const one = [{ role: "system", content: "s" }, { role: "user", content: "x".repeat(900) }, { role: "assistant", content: "y".repeat(900) }]
  const out = await compactor({ maxTokens: 10, summarize })(event(one))
  const metadata = (older) => ({ compacted: { messages: older.length, tokens: estimateTokens(older) } })
  assert.deepEqual(out.messages, [one[0], { role: "system", content: `${SUMMARY_PREFIX}summarized 2 messages`, metadata: metadata(one.slice(1)) }])
  const headless = [{ role: "assistant", content: "y".repeat(900) }, { role: "tool", tool_call_id: "c", content: "z".repeat(900) }]
  const whole = await compactor({ maxTokens: 10, summarize })(event(headless))
  // No leading system prompt (an Anthropic transcript): the summary is a user turn.
  assert.deepEqual(whole.messages, [{ role: "user", content: `${SUMMARY_PREFIX}summarized 2 messages`, metadata: metadata(headless) }])
  // A lone system prompt over budget has no body: nothing to do.
  assert.equal(await compactor({ maxTokens: 10, summarize })(event([{ role: "system", content: "s".repeat(900) }])), undefined)
  assert.equal(await compactor({ maxTokens: 1, summarize })(event([])), undefined)
})

test("countTokens replaces the estimator, for the budget and for the tail", async () => {
  const asked = []
  const countTokens = (messages) => (asked.push(messages.length), messages.length * 10)
  const messages = transcript(5)
  assert.equal(await compactor({ maxTokens: 210, summarize, countTokens })(event(messages)), undefined, "21 messages: 210")
  const out = await compactor({ maxTokens: 200, keepTail: 80, summarize, countTokens })(event(messages))
  assert.deepEqual(out.messages.slice(2), messages.slice(-8), "8 messages fit 80")
  assert.ok(asked.includes(21))
})

test("a failing summarize leaves the call uncompacted, warns, tells onError, and the run goes on", async (t) => {
  const messages = transcript(30)
  const before = JSON.stringify(messages)
  const boom = new Error("model down")
  const warnings = []
  t.mock.method(console, "warn", (text) => warnings.push(text))
  const heard = []
  const cases = [
    [() => { throw boom }, "compactor: summarize failed, this call goes uncompacted: model down"],
    [async () => { throw boom }, "compactor: summarize failed, this call goes uncompacted: model down"],
    [() => Promise.reject(boom), "compactor: summarize failed, this call goes uncompacted: model down"],
    [() => 42, "compactor: summarize gave number, not a string; this call goes uncompacted"],
    [async () => undefined, "compactor: summarize gave undefined, not a string; this call goes uncompacted"],
  ]
  for (const [summarize, message] of cases) {
    assert.equal(await compactor({ maxTokens: 2000, summarize, onError: (e) => heard.push(e) })(event(messages)), undefined)
    assert.equal(heard.at(-1).code, "hook")
    assert.equal(heard.at(-1).message, message)
    assert.equal(warnings.at(-1), `[toolnexus] ${message}`)
  }
  assert.equal(heard[0].cause, boom)
  assert.equal(JSON.stringify(messages), before)
  // A throwing onError is the host's problem, never the run's.
  assert.equal(await compactor({ maxTokens: 2000, summarize: () => { throw boom }, onError: () => { throw new Error("x") } })(event(messages)), undefined)

  // In a run: the model is called with the whole transcript and the run finishes.
  const seen = []
  const client = createInProcessClient({ model: "m", hooks: compactor({ maxTokens: 1, summarize: () => { throw boom } }), generate: ({ messages }) => (seen.push(messages.length), { content: "fine" }) })
  const r = await client.run("hello there", { toolkit: await createToolkit({ builtins: false }), history: messages })
  assert.equal(r.text, "fine")
  assert.equal(seen[0], messages.length + 1)
})

test("bad options are refused as invalid_options, saying what they got", () => {
  const refuse = (options, text) => assert.match(assertCode(thrown(() => compactor(options)), "invalid_options").message, text)
  refuse(undefined, /options must be .* got undefined/)
  refuse({ summarize }, /maxTokens must be a number, got undefined/)
  refuse({ maxTokens: "1", summarize }, /maxTokens must be a number, got string/)
  refuse({ maxTokens: 1 }, /summarize must be a function, got undefined/)
  refuse({ maxTokens: 1, summarize, keepTail: null }, /keepTail must be a number, got null/)
  refuse({ maxTokens: 1, summarize, countTokens: 3 }, /countTokens must be a function, got number/)
  refuse({ maxTokens: 0, summarize }, /^compactor: maxTokens must be positive, got 0$/)
  refuse({ maxTokens: -5, summarize }, /^compactor: maxTokens must be positive, got -5$/)
  refuse({ maxTokens: 100, keepTail: 101, summarize }, /^compactor: keepTail must be from 0 to maxTokens \(100\), got 101$/)
  refuse({ maxTokens: 100, keepTail: -1, summarize }, /keepTail must be from 0 to maxTokens/)
  refuse({ maxTokens: 100, summarize, onError: "log" }, /onError must be a function, got string/)
})

test("agents is exported by every entry: full, lean core, CommonJS", () => {
  for (const entry of [full, core, require("../../pkg/node.cjs"), require("../../pkg/core/node.cjs")]) {
    assert.equal(typeof entry.agents.compactor, "function")
    assert.equal(typeof entry.agents.estimateTokens, "function")
  }
  const hook = compactor({ maxTokens: 1, summarize })
  assert.equal(hook.beforeLLM, hook, "the hook is also a hooks object")
  // createClient takes it as `hooks`; a bare function is still refused.
  const options = { baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m" }
  assert.equal(typeof createClient({ ...options, hooks: hook }).run, "function")
  const bare = assertCode(thrown(() => createClient({ ...options, hooks: () => undefined })), "invalid_options")
  assert.equal(bare.message, "createClient: hooks must be an object, got function")
})

// --- runs against the stub server ----------------------------------------------------------

const oaStub = await startOpenAIStub()
const anStub = await startAnthropicStub()
after(() => Promise.all([oaStub.close(), anStub.close()]))
const bigTool = defineTool({ name: "fetch_page", description: "Reads a page", run: () => "page text ".repeat(200) })
const toolkit = await createToolkit({ builtins: false, extraTools: [bigTool] })
// A kept transcript: under OpenAI it holds the system prompt, under Anthropic the body's `system` does.
const history = [{ role: "user", content: "Earlier question" }, { role: "assistant", content: "Earlier answer" }]
const oaHistory = [{ role: "system", content: "You are Ava." }, ...history]

test("a run with hooks: agents.compactor(...) sends the compacted transcript in its second request", async () => {
  oaStub.requests.length = 0
  oaStub.script(openai.toolCalls([{ id: "c1", name: "fetch_page" }]), openai.text("Done"))
  const seen = []
  const hooks = compactor({ maxTokens: 300, keepTail: 50, summarize: (older) => (seen.push(older), "they said hello") })
  const client = createClient({ baseUrl: oaStub.baseUrl, style: "openai", model: "m", systemPrompt: "You are Ava.", hooks })
  const r = await client.run("Read the page", { toolkit, history: oaHistory })
  assert.equal(r.text, "Done")
  const [first, second] = oaStub.requests.map((q) => q.body.messages)
  assert.deepEqual(first.map((m) => m.content), ["You are Ava.", "Earlier question", "Earlier answer", "Read the page"], "under budget: untouched")
  assert.deepEqual(seen, [history])
  assert.deepEqual(second.slice(0, 3), [
    { role: "system", content: "You are Ava." },
    { role: "system", content: SUMMARY_PREFIX + "they said hello" },
    { role: "user", content: "Read the page" },
  ])
  assert.equal(second.length, 5)
  assertOpenAIPairs(second)
  assert.equal(second[4].tool_call_id, "c1")
  assert.deepEqual(r.messages.slice(0, 3), [second[0], { ...second[1], metadata: { compacted: { messages: 2, tokens: estimateTokens(history) } } }, second[2]], "the compacted transcript is the run's, with the summary's metadata")
})

test("under Anthropic the tail starts at the user prompt, not at the tool_result carrier", async () => {
  anStub.requests.length = 0
  anStub.script(anthropic.toolUse([{ id: "tu1", name: "fetch_page" }]), anthropic.text("Done"))
  const hooks = { beforeLLM: compactor({ maxTokens: 300, keepTail: 50, summarize: () => "they said hello" }) }
  const client = createClient({ baseUrl: anStub.baseUrl, style: "anthropic", model: "m", systemPrompt: "You are Ava.", hooks })
  const r = await client.run("Read the page", { toolkit, history })
  assert.equal(r.text, "Done")
  // The Anthropic transcript has no system message (the prompt is the body's `system`, and the
  // API refuses a system role inside messages), so the summary leads as a user turn (the API
  // joins consecutive user turns); the tail starts at the prompt. No system role is sent.
  const second = anStub.requests[1].body
  assert.equal(second.system, "You are Ava.")
  assert.deepEqual(second.messages.map((m) => m.role), ["user", "user", "assistant", "user"])
  assert.deepEqual(second.messages.slice(0, 2), [
    { role: "user", content: SUMMARY_PREFIX + "they said hello" },
    { role: "user", content: "Read the page" },
  ])
  assertAnthropicPairs(second.messages)
})

test("at or below budget a run's requests are byte-identical to a run without a compactor", async () => {
  const bodies = []
  for (const hooks of [undefined, compactor({ maxTokens: 1_000_000, summarize: () => assert.fail("not called") }), { beforeLLM: compactor({ maxTokens: 1_000_000, summarize }) }]) {
    oaStub.requests.length = 0
    oaStub.script(openai.toolCalls([{ id: "c1", name: "fetch_page" }]), openai.text("Done"))
    const r = await createClient({ baseUrl: oaStub.baseUrl, style: "openai", model: "m", systemPrompt: "You are Ava.", hooks }).run("Read", { toolkit, history: oaHistory })
    bodies.push({ texts: oaStub.requests.map((q) => q.text), messages: JSON.stringify(r.messages) })
  }
  assert.deepEqual(bodies[1], bodies[0])
  assert.deepEqual(bodies[2], bodies[0])
})

test("a run whose summarize throws or rejects goes on uncompacted, every message sent", async (t) => {
  t.mock.method(console, "warn", () => {})
  for (const summarize of [() => { throw new Error("model down") }, async () => { throw new Error("model down") }]) {
    oaStub.requests.length = 0
    oaStub.script(openai.toolCalls([{ id: "c1", name: "fetch_page" }]), openai.text("Done"))
    const failures = []
    const client = createClient({ baseUrl: oaStub.baseUrl, style: "openai", model: "m", hooks: compactor({ maxTokens: 300, keepTail: 50, summarize, onError: (e) => failures.push(e.message) }) })
    const r = await client.run("Read the page", { toolkit, history: oaHistory })
    assert.equal(r.text, "Done")
    assert.equal(oaStub.requests.length, 2)
    assert.equal(oaStub.requests[0].body.messages.length, oaHistory.length + 1, "the whole transcript was sent")
    assert.ok(failures.length >= 1, "the failure was reported")
    assert.match(failures[0], /summarize failed, this call goes uncompacted: model down/)
  }
})

// --- the summary's metadata and the compaction metric ----------------------------------------

/** A message as the provider is sent it. */
const sent = ({ metadata, ...message }) => message

test("the summary records what it stands for: metadata.compacted {messages, tokens}, folding in an earlier summary", async () => {
  const messages = transcript(30)
  const seen = []
  const hook = compactor({ maxTokens: 2000, keepTail: 800, summarize: (older) => (seen.push(older), `summarized ${older.length} messages`) })
  const first = await hook(event(messages))
  const summary = first.messages[1]
  assert.deepEqual(summary.metadata, { compacted: { messages: seen[0].length, tokens: estimateTokens(seen[0]) } })
  assert.equal(summary.metadata.compacted.messages, messages.length - first.messages.length + 1)
  // The estimate leaves metadata out: it is never sent.
  assert.equal(estimateTokens([summary]), estimateTokens([sent(summary)]))
  // The conversation grows; the next compaction folds the first summary in: its messages
  // count as what it recorded, the new ones once each.
  const grown = [...first.messages, ...transcript(30).slice(1)]
  const second = await hook(event(grown))
  const older = seen[1]
  assert.equal(older[0], summary, "the earlier summary is summarized too")
  assert.deepEqual(second.messages[1].metadata.compacted, {
    messages: summary.metadata.compacted.messages + older.length - 1,
    tokens: summary.metadata.compacted.tokens + estimateTokens(older.slice(1)),
  })
  // The flush reminder is not the conversation's: it counts as nothing.
  const flushing = compactor({ maxTokens: 2000, keepTail: 800, summarize, flushToMemory: true })
  const once = await flushing(event(messages))
  assert.equal(once.messages[2].content, FLUSH_REMINDER)
  const twice = await flushing(event([...once.messages, ...transcript(30).slice(1)]))
  const folded = twice.messages[1].metadata.compacted
  const plain = (await compactor({ maxTokens: 2000, keepTail: 800, summarize })(event([...once.messages.filter((m) => m.content !== FLUSH_REMINDER), ...transcript(30).slice(1)]))).messages[1].metadata.compacted
  assert.deepEqual(folded, plain)
  // countTokens, when given, measures what the summary stands for.
  const counted = await compactor({ maxTokens: 200, keepTail: 80, summarize, countTokens: (m) => m.length * 10 })(event(transcript(5)))
  assert.deepEqual(counted.messages[1].metadata, { compacted: { messages: 12, tokens: 120 } })
})

test("onMetric hears each compaction: status ok, or error when summarize fails; a throwing sink is ignored", async (t) => {
  t.mock.method(console, "warn", () => {})
  const messages = transcript(30)
  const events = []
  const ok = await compactor({ maxTokens: 2000, keepTail: 800, summarize, onMetric: (e) => events.push(e) })({ ...event(messages), model: "gpt-x" })
  assert.equal(events.length, 1)
  const { ms, ...rest } = events[0]
  assert.ok(typeof ms === "number" && ms >= 0, `ms: ${ms}`)
  assert.deepEqual(rest, { event: "compaction", status: "ok", model: "gpt-x", ...ok.messages[1].metadata.compacted })
  for (const summarize of [() => { throw new Error("model down") }, async () => 7]) {
    const errors = []
    const out = await compactor({ maxTokens: 2000, keepTail: 800, summarize, onMetric: (e) => events.push(e), onError: (e) => errors.push(e) })(event(messages))
    assert.equal(out, undefined, "uncompacted")
    const failed = events.at(-1)
    assert.equal(failed.event, "compaction")
    assert.equal(failed.status, "error")
    assert.equal(failed.error, errors[0].message)
    assert.deepEqual([failed.messages, failed.tokens], [rest.messages, rest.tokens], "what it would have replaced")
  }
  // Under budget nothing is attempted, so nothing is heard.
  await compactor({ maxTokens: 1_000_000, summarize, onMetric: (e) => events.push(e) })(event(messages))
  assert.equal(events.length, 3)
  const throwing = compactor({ maxTokens: 2000, keepTail: 800, summarize, onMetric: () => { throw new Error("sink down") } })
  assert.ok((await throwing(event(messages))).messages[1].metadata.compacted)
  assert.match(assertCode(thrown(() => compactor({ maxTokens: 1, summarize, onMetric: "log" })), "invalid_options").message, /^compactor: onMetric must be a function, got string$/)
})

test("in a run the summary's metadata never reaches the provider: the bytes are a summary without it, in both styles; the store keeps it", async () => {
  const cases = [
    ["openai", oaStub, () => oaStub.script(openai.toolCalls([{ id: "c1", name: "fetch_page" }]), openai.text("Done")), oaHistory],
    ["anthropic", anStub, () => anStub.script(anthropic.toolUse([{ id: "tu1", name: "fetch_page" }]), anthropic.text("Done")), history],
  ]
  for (const [style, stub, script, kept] of cases) {
    const texts = []
    const stores = []
    for (const strip of [false, true]) {
      const hook = compactor({ maxTokens: 300, keepTail: 50, summarize: () => "they said hello" })
      // The control strips the metadata itself: what a summary without metadata sends.
      const beforeLLM = strip ? async (e) => { const out = await hook(e); return out && { messages: out.messages.map(sent) } } : hook
      const { InMemoryConversationStore } = full
      const store = new InMemoryConversationStore()
      await store.save("t", kept)
      stub.requests.length = 0
      script()
      const client = createClient({ baseUrl: stub.baseUrl, style, model: "m", systemPrompt: "You are Ava.", hooks: { beforeLLM }, store })
      const r = await client.ask("Read the page", { toolkit, id: "t" })
      assert.equal(r.text, "Done")
      assert.equal(stub.requests.length, 2)
      texts.push(stub.requests.map((q) => q.text))
      stores.push(await store.get("t"))
    }
    assert.deepEqual(texts[0], texts[1], `${style}: byte-identical request bodies`)
    assert.ok(!texts[0][1].includes("metadata"), style)
    assert.ok(texts[0][1].includes("they said hello"), `${style}: the summary was sent`)
    const summary = stores[0].find((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX))
    assert.deepEqual(summary.metadata, { compacted: { messages: kept.length - (style === "openai" ? 1 : 0), tokens: estimateTokens(style === "openai" ? kept.slice(1) : kept) } }, `${style}: the store keeps it`)
    assert.equal(stores[1].find((m) => m.content === summary.content).metadata, undefined)
  }
})

test("a later run without a compactor, given a history holding a summary's metadata, does not send it", async () => {
  const hook = compactor({ maxTokens: 300, keepTail: 50, summarize: () => "they said hello" })
  oaStub.requests.length = 0
  oaStub.script(openai.toolCalls([{ id: "c1", name: "fetch_page" }]), openai.text("Done"))
  const first = await createClient({ baseUrl: oaStub.baseUrl, style: "openai", model: "m", systemPrompt: "You are Ava.", hooks: hook }).run("Read the page", { toolkit, history: oaHistory })
  assert.ok(first.messages.some((m) => m.metadata?.compacted), "the run's transcript keeps the metadata")
  const bodies = []
  for (const messages of [first.messages, first.messages.map(sent)]) {
    oaStub.requests.length = 0
    oaStub.script(openai.text("Again"))
    const r = await createClient({ baseUrl: oaStub.baseUrl, style: "openai", model: "m" }).run("Go on", { toolkit, history: messages })
    assert.equal(r.text, "Again")
    bodies.push(oaStub.requests[0].text)
    if (messages === first.messages) assert.deepEqual(r.messages.slice(0, messages.length), messages, "the result keeps the history as given")
  }
  assert.equal(bodies[0], bodies[1])
  assert.ok(!bodies[0].includes("metadata"))
})
