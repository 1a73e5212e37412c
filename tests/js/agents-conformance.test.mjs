// The shared sub-agent fixtures (../shared/conformance/subagent-fanout,
// ../shared/conformance/subagent-budgets, ../shared/conformance/subagent-lifecycle) through the JavaScript surface: each fixture's registry, tools and
// scripted models (`mockLLM`, served by a real local endpoint) and its steps, checked against
// its `expect`. Skipped, saying why, when ../shared/conformance is not beside the project.
// (Escalation and durable resume, subagent-escalation and subagent-durable-resume, are not in
// the JavaScript surface yet.)
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"
import { agents, defineTool } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

const { AgentRuntime, isVerbError } = agents
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const fixtures = path.resolve(root, "../shared/conformance")
const absent = !existsSync(fixtures) && `${fixtures} is absent: these tests need ../shared/conformance beside the project`

const fixture = (name) => JSON.parse(readFileSync(path.join(fixtures, name, "fixture.json"), "utf8"))

/** A script's `$ref` (`../other/fixture.json#/a/b`) resolved. */
function resolve(value) {
  if (!value?.$ref) return value
  const [file, pointer] = value.$ref.split("#")
  let at = JSON.parse(readFileSync(path.join(fixtures, "subagent-lifecycle", file), "utf8"))
  for (const key of pointer.split("/").filter(Boolean)) at = at[key]
  return at
}

clearKeyEnv()
const stub = absent ? undefined : await startOpenAIStub()
after(() => stub?.close())
const llm = () => ({ baseUrl: stub.baseUrl, style: "openai", apiKey: "k" })

/** Blocked calls of a `blocksUntil` script, released by `release()` (an abort drops them). */
let blocked = []
const release = () => blocked.splice(0).forEach((r) => r())
let started

/** Serves `mockLLM` by model name: the first rule whose condition holds answers. */
function serve(mockLLM) {
  const usage = mockLLM.usagePerCall
  const scripts = Object.fromEntries(Object.entries(mockLLM.scripts).map(([k, v]) => [k, resolve(v)]))
  let n = 0
  stub.respond(({ body }) => {
    const msgs = body.messages
    const tools = msgs.filter((m) => m.role === "tool").map((m) => String(m.content))
    const last = String(msgs.filter((m) => m.role === "user").at(-1)?.content ?? "")
    const holds = (rule) =>
      rule.always ||
      (rule.whenToolMsgs === 0 && tools.length === 0) ||
      (rule.whenToolMsgs === ">=1" && tools.length >= 1) ||
      (rule.whenToolMsgContains !== undefined && tools.some((t) => t.includes(rule.whenToolMsgContains))) ||
      (rule.whenNoToolMsgContains !== undefined && !tools.some((t) => t.includes(rule.whenNoToolMsgContains)))
    const rule = (scripts[body.model] ?? []).find(holds)
    if (!rule) return { status: 500, body: `no rule of ${body.model} holds` }
    if (rule.toolCalls) return openai.toolCalls(rule.toolCalls.map((c) => ({ id: `call_${++n}`, name: c.name, args: c.args })), usage)
    const text = rule.text
      .replace("<join all tool msg contents with ' + '>", tools.join(" + "))
      .replace("<first tool msg content>", tools[0])
      .replace("<last tool msg content>", tools.at(-1))
      .replace("<count of numbered inbox items in last user msg>", String(last.match(/^\d+\./gm)?.length ?? 0))
    if (rule.blocksUntil) {
      started?.()
      return new Promise((r) => blocked.push(r)).then(() => openai.text(text, usage))
    }
    return openai.text(text, usage)
  })
}

const TOOLS = {
  lookup: defineTool({ name: "lookup", description: "look something up", inputSchema: { type: "object", properties: { q: { type: "string" } } }, run: (a) => `data(${a.q})` }),
}

/** The fixture's registry with its tool names as tool objects, `override` laid over each entry. */
function registryOf(fx, override = {}) {
  const out = {}
  for (const [name, def] of Object.entries(fx.registry)) {
    out[name] = { ...def, ...override[name], tools: def.tools?.map((t) => TOOLS[t] ?? assert.fail(`no tool ${t}`)) }
  }
  return out
}

const ARROWS = ["idle→running", "running→suspended", "suspended→running", "suspended→idle", "running→idle", "idle→closed", "suspended→closed", "running→closed"]
function transitionsOf(trace, id) {
  return trace.filter((l) => l.startsWith(`${id}: `)).map((l) => ARROWS.find((a) => l.slice(id.length + 2).startsWith(a))).filter(Boolean)
}

async function runEntry(runtime, run) {
  const h = runtime.spawn(runtime.root, run.entry)
  assert.ok(!isVerbError(h), h.error)
  runtime.wake(h, run.prompt)
  return { h, r: await runtime.wait(h) }
}

test("subagent-fanout: parallel task fan-out, isolation, usage roll-up, the transition trace", { skip: absent }, async () => {
  const fx = fixture("subagent-fanout")
  serve(fx.mockLLM)
  const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx) })
  const { h, r } = await runEntry(runtime, fx.run)
  const x = fx.expect
  assert.equal(r.status, x.status)
  for (const s of x.textContains) assert.ok(r.text.includes(s), r.text)
  for (const [s, count] of Object.entries(x.textOccurrences)) assert.equal(r.text.split(s).length - 1, count)
  assert.equal(r.turns, x.parentTurns)
  for (const id of x.childIds) assert.ok(runtime.trace.some((l) => l.startsWith(`${id}: spawned`)), id)
  assert.ok(runtime.maxObservedConcurrentTurns >= x.concurrentTurnsObservedAtLeast)
  assert.equal(h.usageTotal, x.parentUsageTotal)
  if (x.childrenClosedAfterTask) assert.ok(h.children.every((c) => c.state === "closed"))
  for (const [id, expected] of Object.entries(x.transitions)) {
    const actual = transitionsOf(runtime.trace, id)
    assert.equal(actual.length, expected.length, `${id}: ${actual}`)
    expected.forEach((e, i) => assert.ok(actual[i].endsWith(e), `${id}[${i}]: ${actual[i]} vs ${e}`))
  }
})

test("subagent-budgets: carve, maxChildren, the live walk, a loud maxTurns", { skip: absent }, async () => {
  const fx = fixture("subagent-budgets")
  serve(fx.mockLLM)
  let runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx) })
  let byDef = { root: runtime.root }
  const find = (id) => runtime.root.children.flatMap((c) => [c, ...c.children]).find((h) => h.id === id)
  let checked = 0
  for (const step of fx.steps) {
    const x = step.expect ?? {}
    if (step.spawn) {
      // The fixture names the looper `root/looper.1` after `root/coordinator.1`: ids count a
      // parent's children, so (as the reference's own test does) a second top-level spawn
      // starts on a fresh runtime.
      if (step.spawn.parent === "root" && runtime.root.children.length > 0) {
        runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx) })
        byDef = { root: runtime.root }
      }
      const h = runtime.spawn(byDef[step.spawn.parent], step.spawn.def, step.spawn.budget)
      if (x.isError) {
        assert.ok(isVerbError(h) && h.error.includes(x.isError), JSON.stringify(h))
        checked++
        continue
      }
      assert.ok(!isVerbError(h), h.error)
      byDef[step.spawn.def] ??= h
      if (x.effectiveTokens !== undefined) {
        assert.equal(h.pool.tokens, x.effectiveTokens)
        checked++
      }
    } else if (step.wakeWait) {
      const h = find(step.wakeWait.handle)
      runtime.wake(h, step.wakeWait.prompt)
      const r = await runtime.wait(h)
      assert.equal(r.status, x.status, `${step.wakeWait.handle}: ${r.text}`)
      checked++
      if (x.errorContains) assert.ok(r.text.includes(x.errorContains), r.text)
      if (x.parentPoolAfter !== undefined) assert.equal(h.parent.pool.tokens, x.parentPoolAfter)
    }
  }
  assert.equal(checked, 6, "every expectation of the fixture was checked")
})

test("subagent-lifecycle: the coalesced drain, the three gates, interrupt, the close cascade", { skip: absent }, async () => {
  const fx = fixture("subagent-lifecycle")
  serve(fx.mockLLM)
  const s = fx.scenarios
  const item = (post) => ({ from: post.from ?? "root", channel: post.channel ?? "peer", text: post.text })

  {
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx) })
    const peer = runtime.spawn(runtime.root, "peer")
    for (const step of s.coalescedDrain.steps) if (step.post) assert.ok(runtime.post(peer, item(step.post)).ok)
    runtime.wake(peer)
    const r = await runtime.wait(peer)
    assert.deepEqual([r.turns, r.text], [s.coalescedDrain.expect.turns, s.coalescedDrain.expect.text])
  }
  {
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx), ...s.inboxGate.runtime })
    const peer = runtime.spawn(runtime.root, "peer")
    for (const step of s.inboxGate.steps) {
      const posted = runtime.post(peer, item(step.post))
      if (step.expect?.rejected) assert.ok(!posted.ok && posted.error.includes(step.expect.errorContains), JSON.stringify(posted))
      else assert.ok(posted.ok)
    }
  }
  {
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx, s.concurrencyGate.registryOverride) })
    const { r } = await runEntry(runtime, s.concurrencyGate.run)
    assert.equal(r.status, s.concurrencyGate.expect.status)
    for (const t of s.concurrencyGate.expect.traceContains) assert.ok(runtime.trace.some((l) => l.includes(t)), t)
  }
  {
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx), ...s.turnGate.runtime })
    const { r } = await runEntry(runtime, s.turnGate.run)
    assert.equal(r.status, s.turnGate.expect.status)
    assert.equal(runtime.maxObservedConcurrentTurns, s.turnGate.expect.maxObservedConcurrentTurns)
  }
  {
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx) })
    const slow = runtime.spawn(runtime.root, "slow")
    const running = new Promise((r) => (started = r))
    for (const step of s.interrupt.steps) {
      if (step.post) runtime.post(slow, item(step.post))
      if (step.wake) runtime.wake(slow, step.wake.prompt)
      if (step.awaitState) {
        await running
        assert.equal(slow.state, step.awaitState.state)
      }
    }
    const waiting = runtime.wait(slow)
    runtime.interrupt(slow)
    const r = await waiting
    release()
    assert.equal(r.status, s.interrupt.expect.waiterStatus)
    assert.equal(slow.state, s.interrupt.expect.finalState)
    assert.equal(slow.inbox.length, s.interrupt.expect.inboxLen)
  }
  {
    const order = []
    const onClose = (h) => void order.push(h.id)
    const runtime = new AgentRuntime({ llm: llm(), registry: registryOf(fx, { coordinator: { onClose }, peer: { onClose } }) })
    const made = { "": runtime.root }
    for (const at of s.closeCascade.tree) {
      const cut = at.lastIndexOf("/")
      const h = runtime.spawn(made[cut < 0 ? "" : at.slice(0, cut)], at.slice(cut + 1))
      assert.ok(!isVerbError(h), h.error)
      made[at] = h
    }
    await runtime.close(runtime.root)
    const ids = s.closeCascade.tree.map((at) => made[at].id)
    assert.deepEqual(order, ids.reverse(), "leaf-first")
    assert.ok(runtime.list().every((v) => v.state === "closed"))
    const late = s.closeCascade.steps[1]
    const posted = runtime.post(made[late.post.handle], item(late.post))
    assert.ok(!posted.ok && posted.error.includes(late.expect.errorContains), JSON.stringify(posted))
  }
})
