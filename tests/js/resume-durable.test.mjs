// Durable resume on the built package: a halted RunResult goes through JSON.stringify → a file →
// JSON.parse and resumes with runWithAnswer in a fresh client and in another Node process, for
// both dialects; a wrong answer id rejects with code "invalid_resume" and changes nothing.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, startAnthropicStub, openai, anthropic } from "./support/stub-server.mjs"
import { assertCode, assertPlainJson, clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stubs = { openai: await startOpenAIStub(), anthropic: await startAnthropicStub() }
const dir = mkdtempSync(join(tmpdir(), "toolnexus-resume-"))
after(async () => {
  await Promise.all(Object.values(stubs).map((s) => s.close()))
  rmSync(dir, { recursive: true, force: true })
})

const pkgUrl = new URL("../../pkg/node.mjs", import.meta.url).href

// The tool, as source text, so the child process defines exactly the same one.
const TOOL_SOURCE = `({
  name: "transfer",
  description: "Sends money; asks first",
  inputSchema: { type: "object", properties: { to: { type: "string" }, amount: { type: "number" } }, required: ["to", "amount"] },
  run: (args, ctx) => ctx.answer?.ok
    ? "sent " + args.amount + " to " + args.to + " (ref " + (ctx.answer.data?.ref ?? "none") + ")"
    : pending({ id: "req-transfer", kind: "approval", prompt: "Send " + args.amount + " to " + args.to + "?", data: args }),
})`
const transfer = () => defineTool(new Function("pending", `return ${TOOL_SOURCE}`)(pending))

const script = {
  openai: () => [openai.toolCalls([{ id: "c1", name: "transfer", args: { to: "Bob", amount: 25 } }]), openai.text("Done: sent.")],
  anthropic: () => [anthropic.toolUse([{ id: "tu1", name: "transfer", input: { to: "Bob", amount: 25 } }]), anthropic.text("Done: sent.")],
}
const clientFor = (style) => createClient({ baseUrl: stubs[style].baseUrl, style, model: "m", retries: 0 })

/** The tool results the model was sent in `request` (either dialect), as [id, content]. */
function fedBack(style, request) {
  const messages = request.body.messages
  if (style === "openai") return messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content])
  return messages
    .filter((m) => m.role === "user" && Array.isArray(m.content))
    .flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => [b.tool_use_id, b.content]))
}

async function haltToFile(style) {
  stubs[style].script(...script[style]())
  const toolkit = await createToolkit({ extraTools: [transfer()], builtins: false })
  const halted = await clientFor(style).run("Pay Bob 25", { toolkit })
  assert.equal(halted.status, "pending")
  assert.deepEqual(halted.pending, { id: "req-transfer", kind: "approval", prompt: "Send 25 to Bob?", data: { to: "Bob", amount: 25 } })
  assertPlainJson(halted)
  const file = join(dir, `halted-${style}.json`)
  writeFileSync(file, JSON.stringify(halted))
  return file
}

for (const style of ["openai", "anthropic"]) {
  test(`${style}: a halted run resumes from a file in a fresh client and toolkit`, async () => {
    const file = await haltToFile(style)
    const halted = JSON.parse(readFileSync(file, "utf8"))
    const toolkit = await createToolkit({ extraTools: [transfer()], builtins: false })
    const answer = { id: halted.pending.id, ok: true, data: { ref: "T-1" } }
    const r = await clientFor(style).runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer })
    assert.equal(r.status, "done")
    assert.equal(r.text, "Done: sent.")
    const callId = style === "openai" ? "c1" : "tu1"
    assert.deepEqual(fedBack(style, stubs[style].requests[1]), [[callId, "sent 25 to Bob (ref T-1)"]])
    assert.equal(stubs[style].requests.length, 2)
    const users = r.messages.filter((m) => m.role === "user" && !(Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result")))
    assert.equal(users.length, 1, "no user turn was added")
    assert.ok(!JSON.stringify(r.messages).includes('"Send 25 to Bob?"'), "the placeholder is gone")
  })

  test(`${style}: a halted run resumes in another Node process`, async () => {
    const file = await haltToFile(style)
    const child = `
      const { createClient, createToolkit, defineTool, pending } = await import(${JSON.stringify(pkgUrl)})
      const { readFileSync } = await import("node:fs")
      const halted = JSON.parse(readFileSync(${JSON.stringify(file)}, "utf8"))
      const toolkit = await createToolkit({ extraTools: [defineTool(${TOOL_SOURCE})], builtins: false })
      const client = createClient({ baseUrl: ${JSON.stringify(stubs[style].baseUrl)}, style: ${JSON.stringify(style)}, model: "m", retries: 0 })
      const r = await client.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending,
        answer: { id: halted.pending.id, ok: true, data: { ref: "child-" + process.pid } } })
      process.stdout.write(JSON.stringify({ pid: process.pid, result: r }))`
    const out = await new Promise((resolve, reject) =>
      execFile(process.execPath, ["--input-type=module", "-e", child], { timeout: 20_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    )
    const { pid, result } = JSON.parse(out)
    assert.notEqual(pid, process.pid)
    assert.equal(result.status, "done")
    assert.equal(result.text, "Done: sent.")
    assert.equal(fedBack(style, stubs[style].requests[1])[0][1], `sent 25 to Bob (ref child-${pid})`)
  })

  test(`${style}: a declined resume feeds the refusal to the model`, async () => {
    const halted = JSON.parse(readFileSync(await haltToFile(style), "utf8"))
    const toolkit = await createToolkit({ extraTools: [transfer()], builtins: false })
    const answer = { id: halted.pending.id, ok: false, reason: "declined" }
    const r = await clientFor(style).runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer })
    assert.equal(r.status, "done")
    assert.equal(fedBack(style, stubs[style].requests[1])[0][1], "declined/expired: Send 25 to Bob?")
  })
}

test("a wrong, missing or non-string answer id rejects with invalid_resume and nothing runs", async () => {
  const file = await haltToFile("openai")
  const before = readFileSync(file, "utf8")
  const halted = JSON.parse(before)
  let ran = 0
  const counting = defineTool({ name: "transfer", description: "counts", run: () => (ran++, "sent") })
  const toolkit = await createToolkit({ extraTools: [counting], builtins: false })
  stubs.openai.script(openai.text("should not be asked"))
  for (const answer of [{ id: "req-other", ok: true }, { ok: true }, { id: 7, ok: true }]) {
    const error = await rejection(
      clientFor("openai").runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer }),
    )
    assertCode(error, "invalid_resume")
    assert.match(error.message, /^cannot resume: /)
  }
  assert.equal(ran, 0)
  assert.equal(stubs.openai.requests.length, 0, "the model was not called")
  assert.equal(readFileSync(file, "utf8"), before)
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), halted, "the halted run is unchanged")
})

test("a pending that matches nothing in the history rejects with invalid_resume", async () => {
  const halted = JSON.parse(readFileSync(await haltToFile("openai"), "utf8"))
  const toolkit = await createToolkit({ extraTools: [transfer()], builtins: false })
  const other = { id: "req-x", kind: "approval", prompt: "Something else?" }
  const error = await rejection(
    clientFor("openai").runWithAnswer({ toolkit, history: halted.messages, pending: other, answer: { id: "req-x", ok: true } }),
  )
  assertCode(error, "invalid_resume")
  const empty = await rejection(
    clientFor("openai").runWithAnswer({ toolkit, history: [], pending: halted.pending, answer: { id: halted.pending.id, ok: true } }),
  )
  assertCode(empty, "invalid_resume")
})

test("malformed resume options reject with invalid_options", async () => {
  const toolkit = await createToolkit({ builtins: false })
  const client = clientFor("openai")
  assertCode(await rejection(client.runWithAnswer({ toolkit, history: [], answer: { id: "a", ok: true } })), "invalid_options")
  const pendingReq = { id: "a", kind: "approval", prompt: "?" }
  assertCode(await rejection(client.runWithAnswer({ toolkit, history: [], pending: pendingReq, answer: "yes" })), "invalid_options")
  assertCode(await rejection(client.askWithAnswer({ toolkit, pending: pendingReq, answer: { id: "a", ok: true } })), "invalid_options")
})
