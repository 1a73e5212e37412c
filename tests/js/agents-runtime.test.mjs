// The sub-agent runtime from JavaScript (SPEC §7D): the reference's js/test/agents.test.ts
// behaviours that need neither escalation nor durable resume, on a real local model endpoint
// (one scripted OpenAI-style server on 127.0.0.1 that answers by model name, as the
// reference's mock fetch does), with virtual clocks where time matters; then bad input, each a
// precise ToolnexusError or VerbError with the module serving on; a sub-agent as a tool in a
// classic run; hooks and onMetric reaching a child's run; the Level-1 `agent`.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { agents, createClient, createToolkit, defineTool, isToolnexusError, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"
import { VirtualClock } from "./support/virtual-clock.mjs"

const { AgentRuntime, agent, isVerbError } = agents

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

function deferred() {
  let resolve
  const promise = new Promise((r) => (resolve = r))
  return { promise, resolve }
}

// ---- the models, by name --------------------------------------------------------------------

const usage = openai.usage(30, 10, 40)
const say = (content) => openai.text(content, usage)
const call = (name, args, id) => openai.toolCalls([{ id, name, args }], usage)

let slow = { started: deferred(), gate: deferred() }
const newSlow = () => (slow = { started: deferred(), gate: deferred() })

function model(request) {
  const body = request.body
  const msgs = body.messages
  const toolMsgs = msgs.filter((m) => m.role === "tool")
  const sys = String(msgs.find((m) => m.role === "system")?.content ?? "")
  const last = String(msgs[msgs.length - 1]?.content ?? "")
  switch (body.model) {
    case "m-coordinator":
      if (toolMsgs.length === 0) {
        return openai.toolCalls([
          { id: "c1", name: "task", args: { agent: "explore", prompt: "find A" } },
          { id: "c2", name: "task", args: { agent: "explore", prompt: "find B" } },
        ], usage)
      }
      return say(`synthesis: ${toolMsgs.map((m) => m.content).join(" + ")}`)
    case "m-explore":
      if (toolMsgs.length === 0) return call("lookup", { q: "x" }, "e1")
      return say(`found:${toolMsgs[0].content}`)
    case "m-peer":
      return say(`processed ${last.match(/^\d+\./gm)?.length ?? 0} items`)
    case "m-loop":
      return call("lookup", { q: "again" }, `l${toolMsgs.length}`)
    case "m-slow":
      slow.started.resolve()
      return slow.gate.promise.then(() => say("slow-done"))
    case "m-rogue":
      if (toolMsgs.length === 0) return call("task", { agent: "stranger", prompt: "x" }, "r1")
      return say(`rogue: ${toolMsgs[0].content}`)
    case "m-coder":
      if (toolMsgs.length === 0) return call("task", { agent: "explore", prompt: "find the bug" }, "t1")
      return say(`fixed using: ${toolMsgs[0].content} [soul:${sys.includes("You are the CODER") ? "loaded" : "missing"}]`)
    case "m-explore-bug":
      if (toolMsgs.length === 0) return call("lookup", { q: "bug" }, "e1")
      return say(`bug at line 42 (${toolMsgs[0].content})`)
    case "m-mia":
      if (last.includes("Heartbeat")) {
        return say(sys.includes("water the plants") && last.includes("channel=timer") ? "Reminder: water the plants!" : "HEARTBEAT_OK")
      }
      return say(`soul-sections:[${["SOUL.md", "USER.md", "MEMORY.md"].filter((f) => sys.includes(`## ${f}`)).join(",")}]`)
    case "m-old-api":
      if (toolMsgs.length === 0) return call("explore", { prompt: "scan the repo" }, "b1")
      return say(`old-api summary: ${toolMsgs[0].content}`)
    default:
      return say("ok")
  }
}
stub.respond(model)

const llm = { baseUrl: stub.baseUrl, style: "openai", apiKey: "test-key" }

// ---- tools and the registry -----------------------------------------------------------------

const lookup = defineTool({
  name: "lookup",
  description: "look something up",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  run: async (a) => `data(${a.q})`,
})

function registry(overrides = {}) {
  const base = {
    coordinator: { name: "coordinator", does: "splits and delegates", model: "m-coordinator", team: ["explore"] },
    explore: { name: "explore", does: "read-only research", model: "m-explore", tools: [lookup] },
    peer: { name: "peer", does: "team member", model: "m-peer" },
    looper: { name: "looper", does: "never finishes", model: "m-loop", tools: [lookup] },
    slow: { name: "slow", does: "slow worker", model: "m-slow" },
  }
  for (const [k, v] of Object.entries(overrides)) base[k] = { ...base[k], ...v }
  return base
}

const rt = (opts = {}) => new AgentRuntime({ llm, registry: registry(), clock: new VirtualClock(), ...opts })

const TRANSITIONS = ["idle→running", "running→suspended", "suspended→running", "suspended→idle", "running→idle", "idle→closed", "suspended→closed", "running→closed"]
function transitionsOf(trace, id) {
  return trace
    .filter((l) => l.startsWith(`${id}: `))
    .map((l) => TRANSITIONS.find((t) => l.slice(id.length + 2).startsWith(t)))
    .filter(Boolean)
}

/** Asserts `fn` throws a ToolnexusError with `code` and exactly `message`. */
function throwsCoded(fn, code, message) {
  assert.throws(fn, (e) => {
    assert.ok(isToolnexusError(e), `not a ToolnexusError: ${e}`)
    assert.equal(e.code, code)
    assert.equal(e.message, message)
    return true
  })
}

// ---- S1/S2 fan-out --------------------------------------------------------------------------

test("S1/S2: two task calls fan out in parallel, each child isolated, usage rolled up", async () => {
  const runtime = rt()
  const coord = runtime.spawn(runtime.root, "coordinator")
  assert.ok(!isVerbError(coord))
  assert.ok(coord instanceof agents.Handle)
  assert.deepEqual([coord.id, coord.depth, coord.parent], ["root/coordinator.1", 1, runtime.root])
  assert.ok(runtime.wake(coord, "answer using two lookups").ok)
  const r = await runtime.wait(coord)
  assert.equal(r.status, "done")
  assert.equal(r.text, "synthesis: found:data(x) + found:data(x)")
  assert.equal(r.turns, 2)
  assert.equal(r.totalTokens, 80)
  assert.deepEqual(runtime.list().map((h) => h.id), ["root/coordinator.1", "root/coordinator.1/explore.1", "root/coordinator.1/explore.2"])
  assert.ok(runtime.maxObservedConcurrentTurns >= 2, String(runtime.maxObservedConcurrentTurns))
  assert.equal(coord.usageTotal, 240, "2 own turns + 2 children x 2 turns, 40 each")
  assert.ok(runtime.list().every((h) => h.id === coord.id || h.state === "closed"))
  assert.deepEqual(transitionsOf(runtime.trace, coord.id), ["idle→running", "running→idle"])
  for (const child of coord.children) {
    assert.equal(child.parent, coord, "a task-spawned child's parent is the same Handle object")
    assert.equal(child.depth, 2)
    assert.deepEqual(transitionsOf(runtime.trace, child.id), ["idle→running", "running→idle", "idle→closed"])
  }
  assert.equal(coord.children[0], coord.children[0], "one Handle object per handle")
  const child = await runtime.store.get("root/coordinator.1/explore.2")
  assert.equal(child[0].content, "find B", "each child ran on its own fresh transcript")
})

// ---- S5 the unsolicited rail ----------------------------------------------------------------

test("S5: posts coalesce into one turn with provenance; timer ticks dedupe", async () => {
  const runtime = rt()
  const parent = runtime.spawn(runtime.root, "peer")
  const peer = runtime.spawn(parent, "peer")
  runtime.post(peer, { from: "root/peer.1", channel: "peer", text: "from my parent" })
  runtime.post(peer, { from: "external", channel: "external", text: "webhook payload" })
  for (let i = 0; i < 3; i++) runtime.post(peer, { from: "clock", channel: "timer", text: "tick" })
  assert.equal(peer.inbox.length, 5)
  assert.deepEqual(peer.inbox[0], { from: "root/peer.1", channel: "peer", text: "from my parent" })
  runtime.wake(peer)
  const r = await runtime.wait(peer)
  assert.deepEqual([r.turns, r.text], [1, "processed 3 items"])
  assert.equal(peer.inbox.length, 0)
  const sent = stub.requests.at(-1).body.messages[0].content
  assert.ok(sent.includes("2. [from=external channel=external UNTRUSTED] <untrusted>webhook payload</untrusted>"), sent)
  assert.ok(sent.includes("3. [from=clock channel=timer] tick (x3 coalesced)"), sent)
})

// ---- S6 the three gates ---------------------------------------------------------------------

test("S6: the inbox gate refuses loudly; the concurrency gate queues FIFO; the turn gate caps model calls", async () => {
  const rt1 = rt({ inboxCap: 2 })
  const peer = rt1.spawn(rt1.root, "peer")
  assert.deepEqual(rt1.post(peer, { from: "a", channel: "peer", text: "1" }), { ok: true })
  rt1.post(peer, { from: "a", channel: "peer", text: "2" })
  assert.deepEqual(rt1.post(peer, { from: "a", channel: "peer", text: "3" }), { ok: false, error: "inbox full: root/peer.1 (cap 2)" })
  assert.ok(rt1.trace.includes("root/peer.1: post REJECTED (inbox full, cap 2) from a"))

  const rt2 = rt({ registry: registry({ coordinator: { budget: { maxConcurrent: 1 } } }) })
  const c2 = rt2.spawn(rt2.root, "coordinator")
  rt2.wake(c2, "two lookups")
  assert.equal((await rt2.wait(c2)).status, "done")
  assert.ok(rt2.trace.includes("root/coordinator.1/explore.2: wake QUEUED (parent concurrency 1)"), rt2.trace.join("\n"))
  assert.ok(rt2.maxObservedConcurrentTurns <= 2)

  const rt3 = rt({ maxConcurrentTurns: 1 })
  const c3 = rt3.spawn(rt3.root, "coordinator")
  rt3.wake(c3, "two lookups")
  assert.equal((await rt3.wait(c3)).status, "done")
  assert.equal(rt3.maxObservedConcurrentTurns, 1)
})

test("the turn gate's slot is released when its holder is interrupted mid-call", async () => {
  newSlow()
  const runtime = rt({ maxConcurrentTurns: 1 })
  const s = runtime.spawn(runtime.root, "slow")
  const p = runtime.spawn(runtime.root, "peer")
  runtime.wake(s, "work slowly")
  await slow.started.promise
  runtime.wake(p, "go")
  runtime.interrupt(s)
  assert.equal((await runtime.wait(p)).status, "done")
  assert.equal((await runtime.wait(s)).status, "interrupted")
})

// ---- S7 budgets -----------------------------------------------------------------------------

test("S7: carve min(own, parent remaining), live exhaustion is incomplete, maxChildren and maxTurns are loud", async () => {
  const runtime = rt()
  const c = runtime.spawn(runtime.root, "coordinator", { maxTokens: 100, maxChildren: 2 })
  const kid = runtime.spawn(c, "explore", { maxTokens: 500 })
  assert.equal(kid.pool.tokens, 100, "asked 500, parent has 100")
  assert.equal(runtime.inspect(kid).poolTokens, 100)
  const kid2 = runtime.spawn(c, "explore")
  assert.deepEqual(runtime.spawn(c, "explore"), { error: "maxChildren 2 exceeded" })
  runtime.wake(kid, "go")
  await runtime.wait(kid)
  assert.equal(c.pool.tokens, 20, "the child's 80 tokens drained the parent's pool")
  runtime.wake(kid2, "go")
  assert.equal((await runtime.wait(kid2)).status, "done", "20 left at admission: allowed")
  const again = runtime.wake(kid2, "again")
  assert.equal(again.ok, false)
  assert.ok(again.error.includes("budget exhausted"), again.error)
  const r3 = await runtime.wait(kid2)
  assert.equal(r3.status, "incomplete")
  assert.ok(r3.text.includes("budget exhausted"), r3.text)
  assert.equal(runtime.root.pool.tokens, Infinity)

  const rt4 = rt()
  const lp = rt4.spawn(rt4.root, "looper", { maxTurns: 2 })
  rt4.wake(lp, "loop forever")
  const rl = await rt4.wait(lp)
  assert.deepEqual([rl.status, rl.limit, rl.isError], ["incomplete", "maxTurns", true])
})

// ---- S8 interrupt and close -----------------------------------------------------------------

/** A `slow` handle of `runtime` in the middle of its model call, one inbox item drained into it. */
async function slowTurn(runtime) {
  newSlow()
  const s = runtime.spawn(runtime.root, "slow")
  runtime.post(s, { from: "root", channel: "peer", text: "for later" })
  runtime.wake(s, "work slowly")
  await slow.started.promise
  return { runtime, s }
}

test("S8: interrupt aborts the turn, not the agent: idle, inbox restored, waiter told interrupted", async () => {
  const { runtime, s } = await slowTurn(rt())
  assert.equal(s.state, "running")
  const w = runtime.wait(s)
  runtime.interrupt(s)
  const r = await w
  assert.deepEqual([r.isError, r.status], [true, "interrupted"])
  assert.equal(s.state, "idle")
  assert.equal(s.inbox.length, 1)
})

test("a forced close restores the drained inbox items too", async () => {
  const { runtime, s } = await slowTurn(rt())
  await runtime.close(s, { force: true })
  assert.equal(s.state, "closed")
  assert.equal(s.inbox.length, 1)
})

test("a graceful close waits shutdownMs on the runtime's clock, then aborts", async () => {
  const clock = new VirtualClock()
  const { runtime, s } = await slowTurn(rt({ clock, shutdownMs: 200 }))
  const closing = runtime.close(runtime.root)
  await clock.armed()
  assert.equal(s.state, "running", "inside the grace window")
  clock.advance(200)
  await closing
  assert.equal(s.state, "closed")
  assert.equal(s.inbox.length, 1)
})

test("S9: close(root) cascades leaf-first; onSpawn and onClose get Handles; a closed handle refuses posts", async () => {
  const closed = []
  const spawned = []
  const onClose = async (h, reason) => closed.push(`${h.id}:${reason}`)
  const onSpawn = (h) => spawned.push(h)
  const runtime = rt({ registry: registry({ coordinator: { onClose, onSpawn }, peer: { onClose } }) })
  const c = runtime.spawn(runtime.root, "coordinator")
  const k1 = runtime.spawn(c, "peer")
  const k2 = runtime.spawn(k1, "peer")
  assert.deepEqual(spawned, [c])
  await runtime.close(runtime.root)
  assert.deepEqual(closed, [`${k2.id}:closed`, `${k1.id}:closed`, `${c.id}:closed`])
  assert.ok(runtime.list().every((h) => h.state === "closed"))
  assert.deepEqual(runtime.post(k1, { from: "x", channel: "peer", text: "late" }), { ok: false, error: "inbox closed: root/coordinator.1/peer.1" })
  assert.deepEqual(runtime.wake(k1, "late"), { ok: false, error: "closed: root/coordinator.1/peer.1" })
  assert.deepEqual(runtime.spawn(k1, "peer"), { error: "parent closed: root/coordinator.1/peer.1" })
  assert.equal((await runtime.wait(k1)).status, "closed")
})

// ---- waits ----------------------------------------------------------------------------------

test("the one store: a handle's transcript grows across its turns", async () => {
  const runtime = rt()
  const peer = runtime.spawn(runtime.root, "peer")
  runtime.wake(peer, "first")
  await runtime.wait(peer)
  const after1 = await runtime.store.get(peer.id)
  runtime.wake(peer, "second")
  await runtime.wait(peer)
  const after2 = await runtime.store.get(peer.id)
  assert.ok(after2.length > after1.length)
  const users = after2.filter((m) => m.role === "user").map((m) => String(m.content))
  assert.ok(users.some((c) => c.includes("first")) && users.some((c) => c.includes("second")))
})

test("the default store (kept in the module) reads and writes as an InMemoryConversationStore: copies in and out, the same refusals", async () => {
  const { InMemoryConversationStore } = await import("../../pkg/node.mjs")
  const runtime = rt()
  assert.ok(runtime.store instanceof InMemoryConversationStore)
  const peer = runtime.spawn(runtime.root, "peer")
  runtime.wake(peer, "hello")
  await runtime.wait(peer)
  // What a turn saved in the module is what store.get gives, a fresh copy each time.
  const saved = await runtime.store.get(peer.id)
  assert.equal(saved[0].content, "hello")
  assert.equal(saved.at(-1).role, "assistant")
  saved.push({ role: "user", content: "not saved" })
  assert.equal((await runtime.store.get(peer.id)).length, saved.length - 1)
  // A save from JavaScript is copied (a later change to the array is not seen) and read back by the next turn.
  const seeded = [{ role: "user", content: "seeded" }, { role: "assistant", content: "ok" }]
  await runtime.store.save(peer.id, seeded)
  seeded.push({ role: "user", content: "after the save" })
  assert.deepEqual(await runtime.store.get(peer.id), seeded.slice(0, 2))
  runtime.wake(peer, "again")
  await runtime.wait(peer)
  const after = await runtime.store.get(peer.id)
  assert.deepEqual(after.slice(0, 3).map((m) => m.content), ["seeded", "ok", "again"])
  assert.equal(await runtime.store.get("root/nobody.9"), undefined)
  // The same refusals as an InMemoryConversationStore's, as rejections.
  const plain = new InMemoryConversationStore()
  for (const [call, args] of [["get", [42]], ["save", [7, []]], ["save", ["x", "not an array"]], ["save", ["x", { length: 1 }]]]) {
    const mine = await runtime.store[call](...args).then(() => "resolved", (e) => `${e.code}: ${e.message}`)
    const theirs = await plain[call](...args).then(() => "resolved", (e) => `${e.code}: ${e.message}`)
    assert.equal(mine, theirs, `${call}(${JSON.stringify(args)})`)
    assert.match(mine, /^invalid_argument: /)
  }
  // A runtime restored without a store starts with an empty one of its own.
  assert.equal(await agents.AgentRuntime.restore({ registry: registry() }, (() => { const r = rt(); return r.savedState() })()).store.get(peer.id), undefined)
})

test("a runtime takes a ConversationStore: every handle's transcript goes there", async () => {
  const store = new (await import("../../pkg/node.mjs")).InMemoryConversationStore()
  const runtime = rt({ store })
  assert.equal(runtime.store, store)
  const peer = runtime.spawn(runtime.root, "peer")
  runtime.wake(peer, "hello")
  await runtime.wait(peer)
  assert.equal((await store.get("root/peer.1"))[0].content, "hello")
})

test("wait gives the last result at once when the handle is settled", async () => {
  const runtime = rt()
  const peer = runtime.spawn(runtime.root, "peer")
  runtime.wake(peer, "go")
  const first = await runtime.wait(peer)
  assert.equal(first.status, "done")
  assert.deepEqual(await runtime.wait(peer), first)
})

test("a wait timeout is a timeout result on the runtime's clock; the child keeps running", async () => {
  newSlow()
  const clock = new VirtualClock()
  const runtime = rt({ clock })
  const s = runtime.spawn(runtime.root, "slow")
  runtime.wake(s, "work slowly")
  await slow.started.promise
  const w = runtime.wait(s, { timeoutMs: 100 })
  await clock.armed()
  clock.advance(100)
  const r = await w
  assert.deepEqual([r.status, r.text], ["timeout", "wait timeout after 100ms (child still running)"])
  assert.equal(s.state, "running")
  slow.gate.resolve()
  assert.equal((await runtime.wait(s)).status, "done")
})

test("agents.systemClock is a Clock the runtime runs on", async () => {
  newSlow()
  assert.equal(typeof agents.systemClock.now(), "number")
  const runtime = rt({ clock: agents.systemClock })
  assert.equal(runtime.clock, agents.systemClock)
  const s = runtime.spawn(runtime.root, "slow")
  runtime.wake(s, "work slowly")
  await slow.started.promise
  assert.equal((await runtime.wait(s, { timeoutMs: 5 })).status, "timeout")
  slow.gate.resolve()
  assert.equal((await runtime.wait(s)).status, "done")
})

// ---- teams ----------------------------------------------------------------------------------

test("a task outside the team is refused with the team listed; no team means no task tool", async () => {
  const runtime = rt({ registry: registry({ rogue: { name: "rogue", does: "tries to escape", model: "m-rogue", team: ["explore"] } }) })
  const h = runtime.spawn(runtime.root, "rogue")
  runtime.wake(h, "go")
  const r = await runtime.wait(h)
  assert.ok(r.text.includes("not in this agent's team") && r.text.includes("explore"), r.text)
  const rt2 = rt({ registry: registry({ teamless: { name: "teamless", does: "no delegation", model: "m-rogue" } }) })
  const t = rt2.spawn(rt2.root, "teamless")
  rt2.wake(t, "go")
  assert.ok((await rt2.wait(t)).text.includes("Unknown tool: task"))
})

// ---- hooks and metrics reach a child's run ----------------------------------------------------

test("the runtime's hooks and onMetric reach a delegated child's run; a definition's replace them", async () => {
  const seen = []
  const metrics = []
  const own = []
  const runtime = rt({
    hooks: { beforeLLM: ({ model }) => void seen.push(model), beforeTool: ({ name }) => void seen.push(`tool:${name}`) },
    onMetric: (e) => metrics.push(e),
    registry: registry({ peer: { hooks: { beforeLLM: ({ model }) => void own.push(model) } } }),
  })
  const c = runtime.spawn(runtime.root, "coordinator")
  runtime.wake(c, "two lookups")
  assert.equal((await runtime.wait(c)).status, "done")
  assert.equal(seen.filter((m) => m === "m-explore").length, 4, seen.join(","))
  assert.equal(seen.filter((m) => m === "tool:lookup").length, 2)
  assert.equal(seen.filter((m) => m === "m-coordinator").length, 2)
  const models = metrics.filter((e) => e.event === "llm").map((e) => e.model)
  assert.equal(models.filter((m) => m === "m-explore").length, 4, JSON.stringify(metrics.map((e) => e.event)))
  assert.ok(!JSON.stringify(metrics).includes("test-key"), "the API key never reaches a metric")
  const p = runtime.spawn(runtime.root, "peer")
  runtime.wake(p, "hi")
  await runtime.wait(p)
  assert.deepEqual(own, ["m-peer"])
  assert.ok(!seen.includes("m-peer"), "the def's hooks replaced the runtime's")
})

// ---- bad input ------------------------------------------------------------------------------

test("bad options are precise ToolnexusErrors; a bad verb is a VerbError; the module keeps serving", async () => {
  const bad = (options, code, message) => throwsCoded(() => new AgentRuntime(options), code, message)
  bad(undefined, "invalid_options", "AgentRuntime: options must be an object {registry, llm?, fetch?, clock?, store?, …}, got undefined")
  bad({ llm }, "invalid_options", "AgentRuntime: registry must be an object of agent definitions by name, got undefined")
  bad({ registry: { a: { does: "x", team: ["ghost"] } } }, "invalid_options", "AgentRuntime: registry: agent \"a\": unknown team agent \"ghost\" (known: a)")
  bad({ registry: { a: { does: "x", team: ["b"] }, b: { does: "y", team: ["a"] } } }, "invalid_options", "AgentRuntime: registry: team cycle: a → b → a")
  bad({ registry: { a: { does: "x", budget: { maxTurns: 0 } } } }, "invalid_options", "AgentRuntime: registry: agent \"a\": budget.maxTurns must be a positive number (got 0)")
  bad({ registry: { a: { does: "x", budget: { maxTokens: "lots" } } } }, "invalid_options", "AgentRuntime: registry[\"a\"].budget.maxTokens must be a positive number (got \"lots\")")
  bad({ registry: { a: { does: "x", tools: ["lookup"] } } }, "invalid_options", "AgentRuntime: registry[\"a\"].tools[0]: a tool must be an object with name, description, inputSchema and execute, got string")
  const otherLookup = defineTool({ name: "lookup", run: () => "other" })
  bad({ registry: { a: { does: "x", tools: [lookup] }, b: { does: "y", tools: [otherLookup] } } }, "invalid_options", "AgentRuntime: registry[\"b\"].tools[0]: another tool named \"lookup\" is already in the registry (one tool object per name)")
  bad({ registry: { a: { name: "b", does: "x" } } }, "invalid_options", "AgentRuntime: registry[\"a\"].name is \"b\": it must be its key \"a\"")
  bad({ registry: { a: { does: 3 } } }, "invalid_options", "AgentRuntime: registry[\"a\"].does must be a string, got number")
  bad({ registry: { a: { does: "x", waitFor: "yes" } } }, "invalid_options", "AgentRuntime: registry[\"a\"].waitFor must be a function, got string")
  bad({ registry: {}, inboxCap: 0 }, "invalid_options", "AgentRuntime: inboxCap must be a whole number of at least 1, got 0")
  bad({ registry: {}, maxConcurrentTurns: 1.5 }, "invalid_options", "AgentRuntime: maxConcurrentTurns must be a whole number of at least 1, got 1.5")
  bad({ registry: {}, shutdownMs: -1 }, "invalid_options", "AgentRuntime: shutdownMs must be a number of milliseconds, 0 or more (got -1)")
  bad({ registry: {}, clock: { now: () => 0 } }, "invalid_options", "AgentRuntime: clock must have now() and setTimeout(fn, ms) functions")
  bad({ registry: {}, llm: { style: "gemini" } }, "invalid_options", "AgentRuntime: llm.style must be \"openai\" or \"anthropic\", got \"gemini\"")
  bad({ registry: {}, fetch: "fetch" }, "invalid_options", "AgentRuntime: fetch must be a function, got string")
  bad({ registry: {}, store: {} }, "invalid_options", "AgentRuntime: store must have get(id) and save(id, messages) functions")
  bad({ registry: {}, hooks: 3 }, "invalid_options", "AgentRuntime: hooks must be an object, got number")

  const runtime = rt()
  const other = rt()
  const theirs = other.spawn(other.root, "peer")
  const peer = runtime.spawn(runtime.root, "peer")
  const slowOne = runtime.spawn(runtime.root, "slow")
  assert.deepEqual(runtime.spawn(runtime.root, "nobody"), { error: "unknown agent \"nobody\" (known: coordinator, explore, looper, peer, slow)" })
  assert.deepEqual(runtime.spawn(runtime.root, "peer", { maxTokens: -1 }), { error: "budget.maxTokens must be a positive number (got -1)" })
  assert.deepEqual(runtime.spawn(runtime.root, "peer", { maxTurns: "5" }), { error: "budget.maxTurns must be a positive number (got \"5\")" })
  assert.deepEqual(runtime.spawn(runtime.root, 7), { error: "spawn: the agent name must be a string, got number" })
  assert.deepEqual(runtime.spawn(theirs, "peer"), { error: "the handle is not of this runtime" })
  assert.deepEqual(runtime.post(peer, { from: "a", text: "no channel" }), { ok: false, error: "post: item.channel must be a string, got undefined" })
  assert.deepEqual(runtime.post(theirs, { from: "a", channel: "peer", text: "x" }), { ok: false, error: "the handle is not of this runtime" })
  assert.deepEqual(runtime.wake(peer, 42), { ok: false, error: "wake: prompt must be a string, got number" })
  const refused = await runtime.wait(peer, { by: slowOne })
  assert.deepEqual([refused.status, refused.isError, refused.text], ["error", true, "wait refused: only the spawner may wait on root/peer.1"])
  assert.equal((await runtime.wait(theirs)).text, "wait refused: the handle is not of this runtime")
  await assert.rejects(runtime.wait(peer, { timeoutMs: -5 }), (e) => e.code === "invalid_argument" && e.message === "wait: timeoutMs must be a number of milliseconds, 0 or more, got -5")
  await assert.rejects(runtime.close(peer, { reason: "bored" }), (e) => e.code === "invalid_argument")
  throwsCoded(() => runtime.inspect({ id: "root/peer.1" }), "invalid_argument", "inspect: the handle is not of this runtime")
  assert.equal(isVerbError({ error: "x" }), true)
  assert.equal(isVerbError(peer), false)

  // Still serving: the same runtime runs a turn.
  runtime.wake(peer, "still there?")
  assert.equal((await runtime.wait(peer)).text, "processed 0 items")
})

test("a model endpoint that fails is an error result, never a throw", async () => {
  const runtime = new AgentRuntime({ llm: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-secret-123" }, registry: registry() })
  const peer = runtime.spawn(runtime.root, "peer")
  runtime.wake(peer, "hi")
  const r = await runtime.wait(peer)
  assert.deepEqual([r.status, r.isError], ["error", true])
  assert.equal(peer.state, "idle")
  assert.ok(!JSON.stringify([r, runtime.trace, runtime.list()]).includes("sk-secret-123"), "the key never appears")
  const unauthorized = new AgentRuntime({ llm: { ...llm, apiKey: "sk-secret-123" }, registry: { a: { does: "x", model: "m-401" } } })
  stub.respond((request) => (request.body.model === "m-401" ? { status: 401, body: { error: { message: "bad key" } } } : model(request)))
  try {
    const a = unauthorized.spawn(unauthorized.root, "a")
    unauthorized.wake(a, "hi")
    const denied = await unauthorized.wait(a)
    assert.deepEqual([denied.status, denied.isError], ["error", true])
    assert.ok(denied.text.includes("401"), denied.text)
    assert.ok(!JSON.stringify([denied, unauthorized.trace]).includes("sk-secret-123"))
    assert.equal(stub.requests.at(-1).headers.authorization, "Bearer sk-secret-123", "the key did reach the endpoint")
  } finally {
    stub.respond(model)
  }
})

// ---- the Level-1 surface --------------------------------------------------------------------

test("S10: agent() with a team and a soul file runs through its team", async () => {
  const soulPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tn-agents-")), "AGENTS.md")
  fs.writeFileSync(soulPath, "You are the CODER. Fix things surgically.")
  const explore = agent("explore", { does: "read-only research", uses: { tools: [lookup] }, model: "m-explore-bug" })
  const coder = agent("coder", { does: "implements changes", soulFile: soulPath, team: [explore], model: "m-coder", budget: { maxTokens: 10_000 } })
  const r = await coder.run("fix the failing test", { llm, clock: new VirtualClock() })
  assert.equal(r.status, "done")
  assert.ok(r.text.includes("bug at line 42") && r.text.includes("[soul:loaded]"), r.text)
  assert.ok(r.runtime instanceof AgentRuntime)
  assert.ok(r.runtime.list().every((h) => h.state === "closed"), "the tree is closed after a finished run")
})

test("S11: the registry is the reachable team graph; a team's names are the task targets", () => {
  agent("stranger", { does: "unreachable", model: "m-explore" })
  const explore = agent("explore", { does: "read-only research", uses: { tools: [lookup] }, model: "m-explore" })
  const coder = agent("coder", { does: "implements", team: [explore], model: "m-coder" })
  const reg = coder.registry()
  assert.deepEqual(Object.keys(reg).sort(), ["coder", "explore"])
  assert.deepEqual(reg.coder.team, ["explore"])
  assert.equal(reg.explore.model, "m-explore")
  assert.equal(reg.coder.soul, "")
  assert.equal(coder.name, "coder")
  assert.equal(coder.spec.does, "implements")
})

test("S12: soul sections reach the system prompt; a virtual-clock heartbeat reports only substance", async () => {
  const soul = [
    "## SOUL.md\n\nYou are Mia.",
    "## USER.md\n\nThe user is Muthu.",
    "## MEMORY.md\n\n- Likes green tea.",
    "## HEARTBEAT.md\n\nOn heartbeat: remind to water the plants.",
  ].join("\n\n")
  const mia = agent("mia", { does: "persona agent", soul, model: "m-mia" })
  assert.equal((await mia.run("hello", { llm })).text, "soul-sections:[SOUL.md,USER.md,MEMORY.md]")

  const clock = new VirtualClock()
  const runtime = mia.createRuntime({ llm, clock })
  const h = runtime.spawn(runtime.root, "mia")
  const reports = []
  const beats = []
  const beat = () => {
    runtime.post(h, { from: "clock", channel: "timer", text: "tick" })
    if (h.state === "idle") {
      runtime.wake(h, "Heartbeat. Read your HEARTBEAT.md section and follow it. If nothing needs attention, reply HEARTBEAT_OK.")
      beats.push(runtime.wait(h).then((r) => void (!r.isError && !r.text.includes("HEARTBEAT_OK") && reports.push(r.text))))
    }
    clock.setTimeout(beat, 25)
  }
  clock.setTimeout(beat, 25)
  for (let i = 0; i < 3; i++) {
    clock.advance(25)
    await Promise.all(beats)
  }
  assert.equal(runtime.trace.filter((l) => l.includes("idle→running")).length, 3)
  assert.deepEqual(reports, ["Reminder: water the plants!", "Reminder: water the plants!", "Reminder: water the plants!"])
  await runtime.close(runtime.root)
  assert.equal(h.state, "closed")
})

test("S13: agent.asTool() in a classic client.run through extraTools", async () => {
  const explore = agent("explore", { does: "read-only research", uses: { tools: [lookup] }, model: "m-explore-bug" })
  const tool = explore.asTool({ llm })
  assert.deepEqual([tool.name, tool.description, tool.source], ["explore", "read-only research", "agent"])
  const toolkit = await createToolkit({ builtins: false, extraTools: [tool] })
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m-old-api", apiKey: "test" })
  const r = await client.run("summarize", { toolkit })
  assert.equal(r.text, "old-api summary: bug at line 42 (data(bug))")
  assert.deepEqual(r.toolCalls[0].metadata, { agent: "explore", turns: 2, totalTokens: 80 })
})

test("guardrails project into the registry's hooks: they govern a delegated child", async () => {
  const explore = agent("explore", { does: "research", uses: { tools: [lookup] }, model: "m-explore", guardrails: [({ name }) => (name === "lookup" ? "no lookups today" : "allow")] })
  const coordinator = agent("coordinator", { does: "delegates", team: [explore], model: "m-coordinator" })
  const r = await coordinator.run("two lookups", { llm })
  assert.equal(r.text, "synthesis: found:denied: no lookups today + found:denied: no lookups today")
})

test("the Level-1 surface refuses bad input precisely", async () => {
  throwsCoded(() => agent("", { does: "x" }), "invalid_options", "agent: name must be a non-empty string, got an empty string")
  throwsCoded(() => agent("a", {}), "invalid_options", "agent \"a\": spec must be an object with does (a string), got does: undefined")
  throwsCoded(() => agent("a", { does: "x", team: ["b"] }), "invalid_options", "agent \"a\": team must be an array of agents (agents.agent(...)), got array")
  const twin = agent("explore", { does: "another explore" })
  const lead = agent("lead", { does: "x", team: [agent("explore", { does: "one" }), agent("helper", { does: "y", team: [twin] })] })
  throwsCoded(() => lead.registry(), "invalid_options", "agent \"explore\": two different agents share this name in one team graph")
  await assert.rejects(agent("a", { does: "x", soulFile: "/nonexistent/SOUL.md" }).run("hi", { llm }), (e) => e.code === "invalid_options" && e.message.startsWith("agent \"a\": soulFile \"/nonexistent/SOUL.md\" could not be read"))
  const gated = agent("gated", { does: "x", completion: { verify: () => ({ ok: true }), maxAttempts: 1 } })
  assert.ok(gated.loop({ baseUrl: stub.baseUrl, style: "openai", model: "m-peer", apiKey: "k" }, await createToolkit({ builtins: false })) instanceof agents.Loop)
})

test("the lean build has no runtime: its agents namespace keeps compaction and the harness only", async () => {
  const lean = await import("../../pkg/core/node.mjs")
  for (const name of ["AgentRuntime", "Handle", "agent", "Agent", "isVerbError", "systemClock"]) assert.equal(lean.agents[name], undefined, name)
  assert.equal(typeof lean.agents.compactor, "function")
  assert.equal(typeof lean.agents.Loop, "function")
})

// ---- the §8 seams on an agent run (the reference's agent-hooks.test.ts) -----------------------

const checkSecret = defineTool({
  name: "check_secret",
  description: "needs human approval",
  inputSchema: { type: "object", properties: {} },
  run: async (_a, ctx) => (ctx?.answer?.ok ? "secret-token" : pending({ kind: "approval", prompt: "approve secret access?" })),
})

/** A handle's stored transcript seeded with a soul and `pairs` long user/assistant pairs. */
async function seedTranscript(runtime, id, pairs) {
  const msgs = [{ role: "system", content: "SOUL-VERBATIM" }]
  for (let i = 0; i < pairs; i++) msgs.push({ role: "user", content: "q".repeat(200) }, { role: "assistant", content: "a".repeat(200) })
  await runtime.store.save(id, msgs)
  return msgs
}

const lastSent = (model) => stub.requests.filter((r) => r.body?.model === model).at(-1).body.messages

test("a runtime beforeLLM's rewrite reaches the wire from inside an agent turn", async () => {
  const runtime = new AgentRuntime({
    llm,
    registry: { a: { does: "x", soul: "soul-a", model: "m-hook-wire" } },
    hooks: { beforeLLM: (ev) => ({ messages: [...ev.messages, { role: "system", content: "INJECTED-BY-HOOK" }] }) },
  })
  const h = runtime.spawn(runtime.root, "a")
  runtime.wake(h, "hello")
  assert.equal((await runtime.wait(h)).isError, false)
  assert.deepEqual(lastSent("m-hook-wire").at(-1), { role: "system", content: "INJECTED-BY-HOOK" })
})

test("hooks and onMetric resolve independently: a def's hooks replace the runtime's, its onMetric is inherited", async () => {
  let defHook = 0
  const models = []
  const runtime = new AgentRuntime({
    llm,
    hooks: { beforeLLM: () => { throw new Error("the runtime's hooks must not run for an agent with its own") } },
    onMetric: (e) => void (e.event === "llm" && models.push(e.model)),
    registry: { a: { does: "x", model: "m-a", hooks: { beforeLLM: () => void defHook++ } } },
  })
  const h = runtime.spawn(runtime.root, "a")
  runtime.wake(h, "hi")
  assert.equal((await runtime.wait(h)).isError, false)
  assert.equal(defHook, 1)
  assert.deepEqual(models, ["m-a"])
})

test("an agents.compactor on a definition compacts that agent's turn", async () => {
  const runtime = new AgentRuntime({
    llm,
    registry: { long: { does: "x", soul: "SOUL-VERBATIM", model: "m-compact", hooks: { beforeLLM: agents.compactor({ maxTokens: 200, keepTail: 80, summarize: () => "SUMMARY-OF-HEAD" }) } } },
  })
  const h = runtime.spawn(runtime.root, "long")
  const pre = await seedTranscript(runtime, h.id, 40)
  runtime.wake(h, "next question")
  assert.equal((await runtime.wait(h)).isError, false)
  const sent = lastSent("m-compact")
  assert.ok(sent.length < 20, `sent ${sent.length} of ${pre.length}`)
  assert.equal(sent[0].content, "SOUL-VERBATIM")
  assert.ok(JSON.stringify(sent).includes("SUMMARY-OF-HEAD"))
})

test("a turn that compacts and then suspends is pending (data.path) and rewound to its full pre-turn transcript", async () => {
  stub.respond((request) => {
    if (request.body.model !== "m-asker-compact") return model(request)
    return call("check_secret", {}, "a1")
  })
  try {
    const runtime = new AgentRuntime({
      llm,
      registry: { asker: { does: "needs approvals", model: "m-asker-compact", tools: [checkSecret], hooks: { beforeLLM: agents.compactor({ maxTokens: 200, keepTail: 80, summarize: () => "SUMMARY-OF-HEAD" }) } } },
    })
    const h = runtime.spawn(runtime.root, "asker")
    const pre = await seedTranscript(runtime, h.id, 40)
    runtime.wake(h, "get the secret")
    const r = await runtime.wait(h)
    assert.equal(r.status, "pending")
    assert.deepEqual([r.pending.kind, r.pending.prompt, r.pending.data.path], ["approval", "approve secret access?", ["root", "asker.1"]])
    assert.equal(h.state, "suspended")
    assert.deepEqual(h.pendingRequest, r.pending)
    assert.ok(lastSent("m-asker-compact").length < pre.length, "the turn compacted on the wire")
    assert.deepEqual(await runtime.store.get(h.id), pre, "rewound, the compaction discarded")
    runtime.interrupt(h)
    assert.equal(h.state, "idle", "interrupt cancels a pending request")
    assert.equal(h.pendingRequest, undefined)
  } finally {
    stub.respond(model)
  }
})

test("a definition's waitFor answers its own tool's suspension inside the turn", async () => {
  stub.respond((request) => {
    if (request.body.model !== "m-asker-self") return model(request)
    const tools = request.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content))
    return tools.some((t) => t.includes("secret-token")) ? say("asker-done: secret-token") : call("check_secret", {}, "a1")
  })
  try {
    const asked = []
    const runtime = new AgentRuntime({
      llm,
      registry: { asker: { does: "needs approvals", model: "m-asker-self", tools: [checkSecret], waitFor: async (req) => (asked.push(req.prompt), { id: req.id, ok: true }) } },
    })
    const h = runtime.spawn(runtime.root, "asker")
    runtime.wake(h, "get the secret")
    const r = await runtime.wait(h)
    assert.deepEqual([r.status, r.text], ["done", "asker-done: secret-token"])
    assert.deepEqual(asked, ["approve secret access?"])
    assert.equal(h.state, "idle")
  } finally {
    stub.respond(model)
  }
})
