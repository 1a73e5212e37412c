// A2A outbound (SPEC §7A) on the built package: `agent`, `createToolkit({agents})`, a config's
// `agents` block, `addAgent`, `parseAgentsConfig`, `agentTools`, `agentStatus`/`agentErrors`.
// First the reference port's "a2a" tests, against a stub that speaks the reference's minimal
// wire; then a REAL A2A 1.0 agent built with the official SDK (@a2a-js/sdk), on 127.0.0.1.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { agent, agentTools, createToolkit, parseAgentsConfig, isToolnexusError } from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { startA2AServer } from "./support/a2a-server.mjs"

/** Resolves once `check()` is true, looking every few ms (bounded by the test timeout, never a sleep-and-hope). */
async function until(check) {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2))
}

/**
 * A stub agent that speaks the reference's wire: card {name: "reviewer", url, skills: review,
 * plan, fail}; SendMessage → {state: "submitted"}; GetTask → "working" once, then "failed"
 * for a task text with "fail", "working" forever for "slow", else "completed" (REVIEWED).
 */
async function startReferenceStub() {
  const tasks = new Map()
  const seen = { auth: undefined, sendMessageCalls: 0, getTaskCalls: 0, bodies: [] }
  let counter = 0
  const server = createServer((req, res) => {
    const json = (status, value) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(value))
    }
    if (req.method === "GET" && req.url === "/.well-known/agent-card.json") {
      const port = server.address().port
      return json(200, {
        name: "reviewer",
        description: "a code reviewer",
        version: "1.0.0",
        protocolVersion: "0.3.0",
        capabilities: { streaming: false, pushNotifications: false },
        defaultInputModes: ["text/plain"],
        defaultOutputModes: ["text/plain"],
        url: `http://127.0.0.1:${port}/`,
        skills: [
          { id: "review", name: "Review", description: "Review some code" },
          { id: "plan", name: "Plan", description: "Plan a task" },
          { id: "fail", name: "Fail", description: "Always fails" },
        ],
      })
    }
    if (req.method !== "POST") return json(404, { error: "nope" })
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      seen.auth = req.headers.authorization
      const rpc = JSON.parse(body)
      seen.bodies.push(rpc)
      const result = (value) => json(200, { jsonrpc: "2.0", id: rpc.id, result: value })
      if (rpc.method === "SendMessage") {
        seen.sendMessageCalls++
        const text = rpc.params.message.parts.map((p) => p.text).join("")
        const mode = text.includes("fail") ? "failed" : text.includes("slow") ? "slow" : "completed"
        const id = `t${++counter}`
        tasks.set(id, { polls: 0, mode })
        return result({ id, status: { state: "submitted" } })
      }
      if (rpc.method === "GetTask") {
        seen.getTaskCalls++
        const task = tasks.get(rpc.params.id)
        if (!task) return json(200, { jsonrpc: "2.0", id: rpc.id, error: { code: -32001, message: "Task not found" } })
        task.polls++
        const id = rpc.params.id
        if (task.mode === "slow" || task.polls < 2) return result({ id, status: { state: "working" } })
        if (task.mode === "failed") {
          return result({ id, status: { state: "failed", message: { role: "agent", parts: [{ kind: "text", text: "boom" }] } } })
        }
        return result({ id, status: { state: "completed" }, artifacts: [{ parts: [{ kind: "text", text: "REVIEWED" }] }] })
      }
      json(200, { jsonrpc: "2.0", id: rpc.id, error: { code: -32601, message: "unknown method" } })
    })
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = server.address().port
  return {
    cardUrl: `http://127.0.0.1:${port}/.well-known/agent-card.json`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

describe("the reference port's a2a tests", () => {
  let stub
  before(async () => (stub = await startReferenceStub()))
  after(() => stub.close())

  test("a2a: agent skills become source:a2a tools; success round-trip + env header", async () => {
    process.env.TN_A2A_TOKEN = "a2a-secret"
    const before = { send: stub.seen.sendMessageCalls, get: stub.seen.getTaskCalls }
    const tk = await createToolkit({
      builtins: false,
      agents: [agent({ card: stub.cardUrl, pollEvery: 5, headers: { Authorization: "Bearer ${TN_A2A_TOKEN}" } })],
    })
    const review = tk.get("reviewer_review")
    assert.ok(review, "reviewer_review present")
    assert.equal(review.source, "a2a")
    assert.ok(tk.get("reviewer_plan"), "reviewer_plan present")
    const names = tk.toOpenAI().map((f) => f.function.name)
    assert.deepEqual(names, ["reviewer_review", "reviewer_plan", "reviewer_fail"])

    const r = await tk.execute("reviewer_review", { task: "please review" })
    assert.equal(r.isError, false)
    assert.equal(r.output, "REVIEWED")
    assert.equal(stub.seen.sendMessageCalls - before.send, 1, "SendMessage called exactly once")
    assert.equal(stub.seen.getTaskCalls - before.get, 2, "polled GetTask until completed")
    assert.equal(stub.seen.auth, "Bearer a2a-secret", "env header expanded at call time")
    assert.equal(r.metadata.state, "completed")
    assert.equal(r.metadata.agent, "reviewer")
    assert.match(r.metadata.taskId, /^t\d+$/)
    assert.equal(r.metadata.polls, 2)
    assert.equal(typeof r.metadata.ms, "number")
    // The reference's wire, byte for byte (ids are fresh UUIDs).
    const send = stub.seen.bodies.findLast((b) => b.method === "SendMessage")
    assert.match(send.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    assert.deepEqual(send.params, {
      message: { role: "user", messageId: send.params.message.messageId, parts: [{ kind: "text", text: "please review" }] },
      configuration: { blocking: false },
    })
    assert.notEqual(send.params.message.messageId, send.id)
    await tk.close()
  })

  test("a2a: failed task maps to isError", async () => {
    const tk = await createToolkit({ builtins: false, agents: [agent({ card: stub.cardUrl, pollEvery: 5 })] })
    const r = await tk.execute("reviewer_fail", { task: "please fail" })
    assert.equal(r.isError, true)
    assert.match(r.output, /^A2A task t\d+ failed: boom$/)
    assert.equal(r.metadata.state, "failed")
    await tk.close()
  })

  test("a2a: ctx cancel mid-poll stops further GetTask calls", async () => {
    const tk = await createToolkit({ builtins: false, agents: [agent({ card: stub.cardUrl, pollEvery: 10 })] })
    const ctrl = new AbortController()
    const start = stub.seen.getTaskCalls
    const p = tk.execute("reviewer_review", { task: "slow one" }, { signal: ctrl.signal })
    await until(() => stub.seen.getTaskCalls > start)
    ctrl.abort()
    const r = await p
    assert.equal(r.isError, true)
    assert.match(r.output, /^A2A task t\d+ canceled$/)
    assert.equal(r.metadata.state, "canceled")
    const afterAbort = stub.seen.getTaskCalls
    await new Promise((resolve) => setTimeout(resolve, 60))
    assert.equal(stub.seen.getTaskCalls, afterAbort, "no GetTask calls after abort")
    await tk.close()
  })

  test("a2a: config agents block — enabled:false skipped, enabled resolves", async () => {
    const off = await createToolkit({ builtins: false, mcpConfig: { agents: { rev: { card: stub.cardUrl, disabled: true } } } })
    assert.equal(off.get("reviewer_review"), undefined, "disabled agent skipped")
    assert.deepEqual(off.agentStatus(), {})
    await off.close()

    const on = await createToolkit({ builtins: false, mcpConfig: { agents: { rev: { card: stub.cardUrl, pollEvery: 5 } } } })
    assert.ok(on.get("reviewer_review"), "enabled agent resolved from config")
    assert.deepEqual(on.agentStatus(), { [stub.cardUrl]: "connected" })
    assert.equal((await on.execute("reviewer_review", { task: "go" })).output, "REVIEWED")
    await on.close()
  })

  test("a2a: addAgent() registers tools at runtime", async () => {
    const tk = await createToolkit({ builtins: false })
    assert.equal(tk.get("reviewer_review"), undefined, "absent before addAgent")
    assert.equal(await tk.addAgent(agent({ card: stub.cardUrl, pollEvery: 5 })), tk, "resolves to the toolkit")
    assert.ok(tk.get("reviewer_review"), "present after addAgent")
    assert.ok(tk.get("reviewer_plan"))
    // The bare card URL form also works; the names are taken, so the first ones stay.
    const other = await createToolkit({ builtins: false })
    await other.addAgent(stub.cardUrl, { pollEvery: 5 })
    assert.equal((await other.execute("reviewer_review", { task: "x" })).output, "REVIEWED")
    await tk.close()
    await other.close()
  })

  test("a2a: parseAgentsConfig honors enabled/disabled precedence", () => {
    const parsed = parseAgentsConfig({
      a: { card: "http://x/1" },
      b: { card: "http://x/2", disabled: true },
      c: { card: "http://x/3", enabled: false },
      d: { card: "http://x/4", enabled: true, disabled: true },
    })
    assert.equal(parsed.length, 1)
    assert.equal(parsed[0].card, "http://x/1")
    assert.deepEqual(parsed[0], { card: "http://x/1", timeout: 300000, pollEvery: 1000 })
  })
})

describe("a real A2A 1.0 agent (the official @a2a-js/sdk server)", () => {
  let peer
  before(async () => (peer = await startA2AServer()))
  after(() => peer.close())

  const kit = (extra = {}) => createToolkit({ builtins: false, agents: [agent({ card: peer.cardUrl, pollEvery: 20, ...extra })] })

  test("its skills become tools; a task completes after a few polls with its artifact", async () => {
    process.env.TN_A2A_PEER_TOKEN = "peer-secret-9876"
    const tk = await kit({ headers: { Authorization: "Bearer ${TN_A2A_PEER_TOKEN}" } })
    assert.deepEqual(tk.tools().map((t) => [t.name, t.source, t.description]), [
      ["Review_Desk_review", "a2a", "Review some code"],
      ["Review_Desk_plan_it", "a2a", "Plan a task"],
    ])
    assert.deepEqual(tk.get("Review_Desk_review").inputSchema.required, ["task"])
    const sendsBefore = peer.rpc("SendMessage").length
    const r = await tk.execute("Review_Desk_review", { task: "please review main.rs" })
    assert.equal(r.isError, false, r.output)
    assert.equal(r.output, "REVIEWED: please review main.rs")
    assert.equal(r.metadata.agent, "Review Desk")
    assert.equal(r.metadata.state, "completed")
    assert.ok(r.metadata.polls >= 2, `completed after ${r.metadata.polls} polls`)
    const sends = peer.rpc("SendMessage").slice(sendsBefore)
    assert.equal(sends.length, 1)
    assert.equal(sends[0].path, "/a2a/jsonrpc")
    assert.equal(sends[0].headers["a2a-version"], "1.0")
    assert.equal(sends[0].headers.authorization, "Bearer peer-secret-9876")
    assert.deepEqual(sends[0].rpc.params.configuration, { returnImmediately: true })
    assert.equal(sends[0].rpc.params.message.role, "ROLE_USER")
    const polls = peer.rpc("GetTask").filter((g) => g.rpc.params.id === r.metadata.taskId)
    assert.equal(polls.length, r.metadata.polls)
    await tk.close()
  })

  test("a failing task is an error result with the agent's message", async () => {
    const tk = await kit()
    const r = await tk.execute("Review_Desk_review", { task: "fail this one" })
    assert.equal(r.isError, true)
    assert.equal(r.output, `A2A task ${r.metadata.taskId} failed: boom`)
    assert.equal(r.metadata.state, "failed")
    await tk.close()
  })

  test("a task still working past the timeout times out with its state", async () => {
    const tk = await kit({ timeout: 300, pollEvery: 50 })
    const r = await tk.execute("Review_Desk_review", { task: "slow work" })
    assert.equal(r.isError, true)
    assert.equal(r.output, `A2A task ${r.metadata.taskId} timed out after 300ms (state=working)`)
    assert.ok(r.metadata.polls >= 1)
    assert.ok(r.metadata.ms >= 300)
    await tk.close()
  })

  test("input-required stops polling and is a suspension naming what the agent asks", async () => {
    const tk = await kit()
    const r = await tk.execute("Review_Desk_review", { task: "question about the code" })
    assert.equal(r.isError, true)
    assert.equal(r.output, `A2A task ${r.metadata.taskId} input-required: Which file?`)
    assert.equal(r.metadata.state, "input-required")
    // SPEC §10: a pending result (tests/js/a2a-input.test.mjs answers it).
    assert.equal(r.metadata.pending.kind, "input")
    assert.equal(r.metadata.pending.prompt, "Which file?")
    assert.deepEqual(
      { agent: r.metadata.pending.data.agent, taskId: r.metadata.pending.data.taskId },
      { agent: "Review Desk", taskId: r.metadata.taskId },
    )
    await tk.close()
  })

  test("an abort mid-poll cancels, and no GetTask follows", async () => {
    const tk = await kit({ pollEvery: 10 })
    const ctrl = new AbortController()
    const start = peer.rpc("GetTask").length
    const p = tk.execute("Review_Desk_review", { task: "slow and cancelled" }, { signal: ctrl.signal })
    await until(() => peer.rpc("GetTask").length > start)
    ctrl.abort()
    const r = await p
    assert.equal(r.output, `A2A task ${r.metadata.taskId} canceled`)
    const afterAbort = peer.rpc("GetTask").length
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(peer.rpc("GetTask").length, afterAbort)
    await tk.close()
  })

  test("agentTools resolves the tools without a toolkit (a descriptor's env expands its headers)", async () => {
    const tools = await agentTools(agent({ card: peer.cardUrl, pollEvery: 20, env: { DESK: "desk-7" }, headers: { "X-Desk": "${DESK}" } }))
    assert.deepEqual(tools.map((t) => t.name), ["Review_Desk_review", "Review_Desk_plan_it"])
    const r = await tools[1].execute({ task: "plan it" })
    assert.equal(r.output, "REVIEWED: plan it")
    assert.equal(peer.rpc("SendMessage").at(-1).headers["x-desk"], "desk-7")
  })
})

describe("a failing agent is isolated like a failing MCP server", () => {
  let peer
  let closedPort
  before(async () => {
    peer = await startA2AServer({ name: "ok" })
    const probe = createServer()
    await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve))
    closedPort = probe.address().port
    await new Promise((resolve) => probe.close(resolve))
  })
  after(() => peer.close())

  test("its status and reason are reported, header values never shown, the other tools work", async () => {
    const dead = `http://127.0.0.1:${closedPort}/.well-known/agent-card.json`
    const warnings = []
    const warn = console.warn
    console.warn = (...args) => warnings.push(args.join(" "))
    let tk
    try {
      tk = await createToolkit({
        builtins: false,
        env: { HIDDEN: "hidden-value-4242" },
        agents: [agent({ card: dead, headers: { "X-Key": "${HIDDEN}" } }), agent({ card: peer.cardUrl, pollEvery: 20 })],
      })
    } finally {
      console.warn = warn
    }
    assert.deepEqual(tk.agentStatus(), { [dead]: "failed", [peer.cardUrl]: "connected" })
    const why = tk.agentErrors()[dead]
    assert.match(why, /^A2A Agent Card: could not reach http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json: fetch failed \(ECONNREFUSED\)\. /)
    assert.match(why, /request headers accept, x-key$/, "names the headers a browser's preflight must allow")
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /^\[toolnexus\] A2A agent "http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json" failed: A2A Agent Card: could not reach/)
    for (const text of [why, ...warnings, JSON.stringify(tk.agentErrors())]) assert.ok(!text.includes("hidden-value-4242"))
    assert.equal((await tk.execute("ok_review", { task: "still works" })).output, "REVIEWED: still works")
    await tk.close()
  })

  test("addAgent and agentTools reject with a coded error, and the toolkit keeps serving", async () => {
    const tk = await createToolkit({ builtins: false, agents: [agent({ card: peer.cardUrl, pollEvery: 20 })] })
    const missing = `${peer.url}/nowhere.json`
    await assert.rejects(tk.addAgent(missing), (e) => isToolnexusError(e) && e.code === "http_status" && e.status === 404)
    assert.equal(tk.agentStatus()[missing], "failed")
    await assert.rejects(agentTools(`http://127.0.0.1:${closedPort}/card.json`), (e) => isToolnexusError(e) && e.code === "network" && e.retryable)
    await assert.rejects(agentTools({ card: 42 }), (e) => e.code === "invalid_options" && /card must be a string/.test(e.message))
    await assert.rejects(createToolkit({ agents: "nope" }), (e) => e.code === "invalid_options" && /agents must be an array/.test(e.message))
    await assert.rejects(createToolkit({ mcpConfig: { agents: [] } }), (e) => e.code === "invalid_config" && /agents must be an object/.test(e.message))
    assert.equal((await tk.execute("ok_review", { task: "after" })).output, "REVIEWED: after")
    await tk.close()
  })

  test("a card that is not JSON is bad_response", async () => {
    const server = createServer((req, res) => res.end("<html>not a card</html>"))
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      await assert.rejects(agentTools(`http://127.0.0.1:${server.address().port}/card`), (e) => e.code === "bad_response" && /not JSON/.test(e.message))
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

test("a config file's agents block is read (Node)", async () => {
  const peer = await startA2AServer({ name: "filed" })
  try {
    const dir = mkdtempSync(join(tmpdir(), "tn-a2a-"))
    const file = join(dir, "config.json")
    writeFileSync(file, JSON.stringify({ mcpServers: {}, agents: { desk: { card: peer.cardUrl, pollEvery: 20 } } }))
    const tk = await createToolkit({ builtins: false, mcpConfig: file })
    assert.deepEqual(tk.tools().map((t) => t.name), ["filed_review", "filed_plan_it"])
    await tk.close()
  } finally {
    await peer.close()
  }
})

test("agents come after the built-ins and before extraTools (first name wins)", async () => {
  const peer = await startA2AServer({ name: "order" })
  try {
    const extra = { name: "order_review", description: "mine", inputSchema: { type: "object" }, execute: () => "extra" }
    const warn = console.warn
    console.warn = () => {}
    let tk
    try {
      tk = await createToolkit({ builtins: { tools: { bash: false } }, agents: [agent({ card: peer.cardUrl })], extraTools: [extra] })
    } finally {
      console.warn = warn
    }
    const names = tk.tools().map((t) => t.name)
    const firstAgent = names.indexOf("order_review")
    assert.ok(firstAgent > names.indexOf("question"), "after the built-ins")
    assert.equal(tk.get("order_review").source, "a2a", "the agent's tool wins over the extra of the same name")
    await tk.close()
  } finally {
    await peer.close()
  }
})

test("the lean build refuses agents clearly", async () => {
  await assert.rejects(core.createToolkit({ agents: [] }), (e) => e.code === "unsupported" && /"agents" needs the full build/.test(e.message))
  const tk = await core.createToolkit({})
  await assert.rejects(tk.addAgent("http://127.0.0.1:1/card"), (e) => e.code === "unsupported" && /full build/.test(e.message))
  assert.deepEqual(tk.agentStatus(), {})
})
