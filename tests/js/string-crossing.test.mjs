// Strings into the module and back, exactly: the glue's string copy is rewritten at build
// (scripts/fast-strings.mjs: TextEncoder.encodeInto for strings over 32 UTF-16 units, the
// generated loop below that), so every length around that edge and every kind of character
// at every position that matters goes in as a prompt, a provider's response (a plain fetch
// and a real HTTP Response), a tool's output and a tool's description, and must come back as
// it went in. Both builds (the full package and toolnexus-wasm/core) are checked.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import * as full from "../../pkg/node.mjs"
import * as lean from "../../pkg/core/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

/** `filler` repeated to `units` UTF-16 units, with `mark` put at `at` (clamped to the end). */
function around(units, mark, at) {
  const base = "abcdefghij".repeat(Math.ceil(units / 10)).slice(0, units)
  const where = Math.min(at, base.length)
  return base.slice(0, where) + mark + base.slice(where)
}

const marks = ["é", "€", "漢", "😀", "\u0000", "\u007f", "\u0080", "\u07ff", "\u0800", "\uffff"]
const cases = [
  "",
  "a",
  "x".repeat(31),
  "x".repeat(32),
  "x".repeat(33),
  "y".repeat(1000),
  "z".repeat(20000),
  "é".repeat(40),
  "漢字".repeat(500),
  "😀".repeat(300),
]
for (const mark of marks) {
  for (const units of [0, 10, 31, 32, 33, 100]) {
    for (const at of [0, 15, 31, 32, 33, 99, 1000]) cases.push(around(units, mark, at))
  }
}

/** A fetch that answers every request with a text completion of `content`. */
const answering = (content) => async () => {
  const text = JSON.stringify({
    id: "c",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  })
  return { ok: true, status: 200, headers: new Headers(), text: async () => text }
}

for (const [build, { createClient, createToolkit, defineTool }] of [["full", full], ["lean", lean]]) {
  test(`${build}: prompts and response texts of every length and character come back exactly`, async () => {
    const toolkit = await createToolkit({ builtins: false })
    for (const s of cases) {
      const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: answering(s) })
      const r = await client.run(s, { toolkit })
      assert.equal(r.status, "done")
      assert.ok(r.text === s, `answer of ${s.length} units (${JSON.stringify(s.slice(0, 40))}…)`)
      assert.ok(r.messages[0].content === s, `prompt of ${s.length} units (${JSON.stringify(s.slice(0, 40))}…)`)
    }
  })

  test(`${build}: a real HTTP response of long non-ASCII text comes back exactly`, async () => {
    const toolkit = await createToolkit({ builtins: false })
    const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k" })
    for (const s of ["x".repeat(33) + "é", "漢字".repeat(2000), around(5000, "😀", 4999)]) {
      stub.script(openai.text(s))
      const r = await client.run("go", { toolkit })
      assert.ok(r.text === s, `answer of ${s.length} units`)
    }
  })

  test(`${build}: lone surrogates go in as U+FFFD, short or long, as JavaScript's own UTF-8 encoding has them`, async () => {
    const toolkit = await createToolkit({ builtins: false })
    const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: answering("ok") })
    for (const s of ["\ud800", "a\udc00b", around(40, "\ud83d", 35), around(500, "\ude00", 0), "\ud800".repeat(40)]) {
      const r = await client.run(s, { toolkit })
      const expected = new TextDecoder().decode(new TextEncoder().encode(s))
      assert.ok(expected.includes("\ufffd"))
      assert.ok(r.messages[0].content === expected, `prompt of ${s.length} units`)
    }
  })

  test(`${build}: tool outputs and descriptions of every length and character come back exactly`, async () => {
    for (const s of cases.filter((_, i) => i % 3 === 0)) {
      const echo = defineTool({
        name: "echo",
        description: s,
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
        run: () => s,
      })
      const toolkit = await createToolkit({ builtins: false, extraTools: [echo] })
      assert.ok(toolkit.toOpenAI()[0].function.description === s, `description of ${s.length} units`)
      stub.script(openai.toolCalls([{ id: "c1", name: "echo", args: { text: "x" } }]), openai.text("done"))
      const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k" })
      const r = await client.run("go", { toolkit })
      assert.ok(r.toolCalls[0].output === s, `output of ${s.length} units`)
      assert.equal(stub.requests[1].body.messages.at(-1).content, s)
    }
  })
}
