// A suspension across A2A (SPEC §10 over §7A/§7B), on the built package with real peers on
// 127.0.0.1:
//   inbound   a served toolkit whose run halts saves the task input-required (the Request in
//             status.message), and a follow-up SendMessage with the task's id and a data part
//             {answer} resumes it; the official @a2a-js/sdk client drives it, and hand-made
//             JSON-RPC checks the refusals (wrong id, no answer, a task not waiting);
//   outbound  an @a2a-js/sdk server that answers input-required makes our agent tool pending;
//             the local waitFor answers it (or a durable halt + runWithAnswer), the answer goes
//             back to the remote task, and the tool's result is its artifact;
//   both      our agent({card}) against our handler, end to end, in-process and durable.
// The models are scripted stubs (one endpoint, told apart by the model name).
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ClientFactory } from "@a2a-js/sdk/client"
import { Role, TaskState } from "@a2a-js/sdk"
import { agent, createClient, createToolkit, defineTool, FileTaskStore, pending } from "../../pkg/node.mjs"
import { openai, startOpenAIStub } from "./support/stub-server.mjs"
import { startA2AServer } from "./support/a2a-server.mjs"

const SKILLS = [{ name: "files", description: "Works on files", content: "Work on files." }]

/** Suspends for the file to use (kind input), or uses the answer's `file`. */
const pickFile = (expiresAt) =>
  defineTool({
    name: "pick_file",
    description: "Asks which file to use",
    inputSchema: { type: "object", properties: {} },
    run: (_args, ctx) =>
      ctx.answer?.ok ? `picked ${ctx.answer.data?.file ?? "?"}` : pending({ kind: "input", prompt: "Which file?", ...(expiresAt ? { expiresAt } : {}) }),
  })

const lastUserText = (body) => {
  const user = body.messages.filter((m) => m.role === "user").at(-1)
  return typeof user?.content === "string" ? user.content : ""
}
const toolResults = (body) => body.messages.filter((m) => m.role === "tool")

/**
 * The models. `served`: "ask …" calls pick_file, then answers `DONE: <its result>`.
 * `local-<tool>`: calls the agent tool `<tool>` with the user's text, then answers
 * `LOCAL: <its result>`.
 */
function models(request) {
  const { body } = request
  const results = toolResults(body)
  if (body.model === "served") {
    if (lastUserText(body).startsWith("ask") && results.length === 0) return openai.toolCalls([{ id: "s1", name: "pick_file", args: {} }])
    return openai.text(`DONE: ${results.at(-1)?.content ?? lastUserText(body)}`)
  }
  const tool = body.model.slice("local-".length)
  if (results.length === 0) return openai.toolCalls([{ id: "l1", name: tool, args: { task: lastUserText(body) } }])
  return openai.text(`LOCAL: ${results.at(-1).content}`)
}

let stub
let served
before(async () => {
  stub = await startOpenAIStub()
  stub.respond(models)
  served = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "served", apiKey: "sk-secret-key", retries: 0 })
})
after(() => stub.close())

const tempDirs = []
after(() => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "a2a-input-"))
  tempDirs.push(dir)
  return dir
}

/** A toolkit with pick_file served on 127.0.0.1 as an A2A agent over `store`. */
async function serveDesk({ store, client = served, expiresAt, onTask } = {}) {
  const tk = await createToolkit({ extraTools: [pickFile(expiresAt)], skills: SKILLS, builtins: false })
  return tk.serve("127.0.0.1:0", { client, a2a: { name: "file-desk", ...(store ? { store } : {}) }, ...(onTask ? { onTask } : {}) })
}

/** One JSON-RPC call in the reference's wire. */
async function rpc(url, method, params) {
  const res = await fetch(`${url}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "r1", method, params }),
  })
  assert.equal(res.status, 200)
  return res.json()
}
const blocking = { blocking: true }
const send = (url, parts, extra = {}) =>
  rpc(url, "SendMessage", { message: { role: "user", messageId: crypto.randomUUID(), parts, ...extra }, configuration: blocking })
const answerPart = (answer) => ({ kind: "data", data: { answer } })

describe("inbound: a run that suspends is input-required, and the answer resumes it", () => {
  const partText = (t) => ({ content: { $case: "text", value: t }, metadata: undefined, filename: "", mediaType: "text/plain" })
  const partData = (v) => ({ content: { $case: "data", value: v }, metadata: undefined, filename: "", mediaType: "application/json" })
  const message = (parts, extra = {}) => ({ messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts, extensions: [], referenceTaskIds: [], ...extra })
  const texts = (parts) => parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")

  test("the official SDK client: input-required with the Request, then the answer completes the task", async () => {
    const srv = await serveDesk()
    try {
      const sdk = await new ClientFactory().createFromUrl(srv.url)
      const contextId = crypto.randomUUID()
      const asked = await sdk.sendMessage({ message: message([partText("ask for a file")], { contextId }) })
      assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED, "never a false completed")
      assert.equal(texts(asked.status.message.parts), "Which file?")
      const data = asked.status.message.parts.find((p) => p.content?.$case === "data").content.value
      const request = data.pending
      assert.equal(request.kind, "input")
      assert.equal(request.prompt, "Which file?")
      assert.equal(typeof request.id, "string")
      assert.equal(asked.artifacts.length, 0)

      const answer = { answer: { id: request.id, ok: true, data: { file: "main.rs" } } }
      const done = await sdk.sendMessage({ message: message([partData(answer)], { taskId: asked.id, contextId }) })
      assert.equal(done.id, asked.id)
      assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED)
      assert.equal(texts(done.artifacts[0].parts), "DONE: picked main.rs")
      const fetched = await sdk.getTask({ id: asked.id })
      assert.equal(fetched.status.state, TaskState.TASK_STATE_COMPLETED)

      // The SDK's own error for a task that no longer waits.
      await assert.rejects(sdk.sendMessage({ message: message([partData(answer)], { taskId: asked.id, contextId }) }), (e) => {
        assert.match(String(e.message), /is completed, not input-required/)
        return true
      })
    } finally {
      await srv.stop()
    }
  })

  test("the halted run is kept with the task: another handler over the same FileTaskStore resumes it", async () => {
    const dir = tempDir()
    const heard = []
    const first = await serveDesk({ store: new FileTaskStore(dir), onTask: (e) => heard.push(e) })
    const second = await serveDesk({
      store: new FileTaskStore(dir),
      client: createClient({ baseUrl: stub.baseUrl, style: "openai", model: "served", retries: 0 }),
    })
    try {
      const asked = (await send(first.url, [{ kind: "text", text: "ask for a file" }])).result
      assert.equal(asked.status.state, "input-required")
      assert.deepEqual(asked.status.message.parts[0], { kind: "text", text: "Which file?" })
      const request = asked.status.message.parts[1].data.pending
      assert.deepEqual(heard.map((e) => e.state), ["input-required"])
      assert.equal(heard[0].task.suspended, undefined, "onTask is not handed the halted run either")
      assert.equal(heard[0].result.status, "pending")
      const kept = JSON.parse(readFileSync(join(dir, `${asked.id}.json`), "utf8"))
      assert.equal(kept.suspended.pending.id, kept.status.message.parts[1].data.pending.id, "the store keeps the halted run")
      assert.ok(Array.isArray(kept.suspended.messages) && kept.suspended.messages.length > 0)
      const got = (await rpc(second.url, "GetTask", { id: asked.id })).result
      assert.equal(got.suspended, undefined, "the halted run never shows on the wire")
      assert.ok(!JSON.stringify(got).includes("pick_file"), "nor its transcript")
      const done = (await send(second.url, [answerPart({ id: request.id, ok: true, data: { file: "lib.rs" } })], { taskId: asked.id })).result
      assert.equal(done.status.state, "completed")
      assert.equal(done.artifacts[0].parts[0].text, "DONE: picked lib.rs")
      // Balanced: the resumed model call saw one result for its one call, and no new user turn.
      const last = stub.requests.at(-1).body
      assert.equal(toolResults(last).length, 1)
      assert.equal(last.messages.filter((m) => m.role === "user").length, 1)
    } finally {
      await first.stop()
      await second.stop()
    }
  })

  test("refusals leave the task waiting: a wrong id, no answer part, an unknown task", async () => {
    const srv = await serveDesk()
    try {
      const asked = (await send(srv.url, [{ kind: "text", text: "ask again" }])).result
      const request = asked.status.message.parts[1].data.pending
      const wrong = await send(srv.url, [answerPart({ id: "not-the-request", ok: true })], { taskId: asked.id })
      assert.equal(wrong.error.code, -32602)
      assert.match(wrong.error.message, /answer's id "not-the-request" is not the id of the request/)
      const textOnly = await send(srv.url, [{ kind: "text", text: "main.rs" }], { taskId: asked.id })
      assert.equal(textOnly.error.code, -32602)
      assert.match(textOnly.error.message, /send the Answer as a data part/)
      assert.ok(textOnly.error.message.includes(request.id), "the error names the id to echo")
      const noOk = await send(srv.url, [answerPart({ id: request.id })], { taskId: asked.id })
      assert.equal(noOk.error.code, -32602)
      const listed = await send(srv.url, [answerPart([request.id, true])], { taskId: asked.id })
      assert.equal(listed.error.code, -32602, "an answer that is not an object")
      const numbered = await send(srv.url, [answerPart({ id: request.id, ok: true })], { taskId: 5 })
      assert.deepEqual(numbered.error, { code: -32602, message: "Invalid params: message.taskId must be a string" })
      const unknown = await send(srv.url, [answerPart({ id: request.id, ok: true })], { taskId: "no-such-task" })
      assert.deepEqual(unknown.error, { code: -32001, message: "Task not found: no-such-task" })
      const still = (await rpc(srv.url, "GetTask", { id: asked.id })).result
      assert.equal(still.status.state, "input-required")
      // A declined answer resumes too: the model reads the refusal.
      const declined = (await send(srv.url, [answerPart({ id: request.id, ok: false, reason: "declined" })], { taskId: asked.id })).result
      assert.equal(declined.status.state, "completed")
      assert.equal(declined.artifacts[0].parts[0].text, "DONE: declined/expired: Which file?")
    } finally {
      await srv.stop()
    }
  })

  test("an input-required task saved without its halted run says it cannot be resumed", async () => {
    const dir = tempDir()
    const store = new FileTaskStore(dir)
    await store.save({ id: "old-1", status: { state: "input-required", message: { role: "agent", parts: [{ kind: "text", text: "Which file?" }] } } })
    const srv = await serveDesk({ store })
    try {
      const refused = await send(srv.url, [answerPart({ id: "r", ok: true })], { taskId: "old-1" })
      assert.deepEqual(refused.error, { code: -32004, message: "Task old-1 is input-required, but its halted run was not kept with it, so it cannot be resumed" })
      assert.equal((await rpc(srv.url, "GetTask", { id: "old-1" })).result.status.state, "input-required")
    } finally {
      await srv.stop()
    }
  })

  test("an answer after the request's expiresAt resumes as declined", async () => {
    const srv = await serveDesk({ expiresAt: "2001-01-01T00:00:00Z" })
    try {
      const asked = (await send(srv.url, [{ kind: "text", text: "ask late" }])).result
      const request = asked.status.message.parts[1].data.pending
      assert.equal(request.expiresAt, "2001-01-01T00:00:00Z")
      const late = (await send(srv.url, [answerPart({ id: request.id, ok: true, data: { file: "x" } })], { taskId: asked.id })).result
      assert.equal(late.artifacts[0].parts[0].text, "DONE: declined/expired: Which file?")
    } finally {
      await srv.stop()
    }
  })

  test("non-blocking: the answer returns the task working, GetTask follows it to completed", async () => {
    const srv = await serveDesk()
    try {
      const asked = (await send(srv.url, [{ kind: "text", text: "ask quietly" }])).result
      const request = asked.status.message.parts[1].data.pending
      const params = { message: { role: "user", messageId: "m", taskId: asked.id, parts: [answerPart({ id: request.id, ok: true, data: { file: "a.rs" } })] } }
      const working = (await rpc(srv.url, "SendMessage", params)).result
      assert.deepEqual(working, { id: asked.id, status: { state: "working" } })
      let now = working
      while (now.status.state === "working") {
        await new Promise((resolve) => setTimeout(resolve, 5))
        now = (await rpc(srv.url, "GetTask", { id: asked.id })).result
      }
      assert.equal(now.artifacts[0].parts[0].text, "DONE: picked a.rs")
    } finally {
      await srv.stop()
    }
  })
})

/** A local client whose model calls `tool`, answering suspensions with `waitFor` when given. */
const localClient = (tool, waitFor) =>
  createClient({ baseUrl: stub.baseUrl, style: "openai", model: `local-${tool}`, retries: 0, ...(waitFor ? { waitFor } : {}) })

describe("outbound: an @a2a-js/sdk agent's input-required is a pending result of the agent tool", () => {
  let remote
  before(async () => {
    remote = await startA2AServer()
  })
  after(() => remote.close())

  test("the local waitFor answers it, the answer goes to the remote task, the artifact is the result", async () => {
    const toolkit = await createToolkit({ agents: [agent({ card: remote.cardUrl, pollEvery: 10 })], builtins: false })
    const asked = []
    const client = localClient("Review_Desk_review", async (request) => {
      asked.push(request)
      return { id: request.id, ok: true, data: { text: "main.rs" } }
    })
    const r = await client.run("question: what to review?", { toolkit })
    assert.equal(r.status, "done")
    assert.equal(r.text, "LOCAL: FILE: main.rs")
    assert.equal(asked.length, 1)
    assert.equal(asked[0].kind, "input")
    assert.equal(asked[0].prompt, "Which file?")
    assert.equal(asked[0].data.agent, "Review Desk")
    const sends = remote.rpc("SendMessage")
    const followUp = sends.at(-1).rpc.params.message
    assert.equal(followUp.taskId, asked[0].data.taskId)
    assert.deepEqual(followUp.parts[0], { text: "main.rs" })
    assert.deepEqual(followUp.parts[1].data.answer, { id: asked[0].id, ok: true, data: { text: "main.rs" } })
  })

  test("without waitFor the run halts durably; runWithAnswer on a fresh client finishes the remote task", async () => {
    const toolkit = await createToolkit({ agents: [agent({ card: remote.cardUrl, pollEvery: 10 })], builtins: false })
    const halted = await localClient("Review_Desk_review").run("question: which one?", { toolkit })
    assert.equal(halted.status, "pending")
    assert.equal(halted.pending.kind, "input")
    assert.equal(halted.pending.data.agent, "Review Desk")
    const saved = JSON.parse(JSON.stringify(halted))
    const fresh = await createToolkit({ agents: [agent({ card: remote.cardUrl, pollEvery: 10 })], builtins: false })
    const done = await localClient("Review_Desk_review").runWithAnswer({
      toolkit: fresh,
      history: saved.messages,
      pending: saved.pending,
      answer: { id: saved.pending.id, ok: true, data: { text: "lib.rs" } },
    })
    assert.equal(done.status, "done")
    assert.equal(done.text, "LOCAL: FILE: lib.rs")
    assert.equal(remote.rpc("SendMessage").at(-1).rpc.params.message.taskId, saved.pending.data.taskId)
  })
})

describe("both ends ours: agent({card}) against toolkit.serve, the answer crossing twice", () => {
  test("in-process: the local waitFor answers the served agent's Request (its kind and id kept)", async () => {
    const srv = await serveDesk()
    try {
      const toolkit = await createToolkit({ agents: [agent({ card: `${srv.url}/.well-known/agent-card.json`, pollEvery: 10 })], builtins: false })
      const asked = []
      const client = localClient("file-desk_files", async (request) => {
        asked.push(request)
        return { id: request.id, ok: true, data: { file: "main.rs" } }
      })
      const r = await client.run("ask for the file", { toolkit })
      assert.equal(r.status, "done")
      assert.equal(r.text, "LOCAL: DONE: picked main.rs")
      assert.equal(asked[0].kind, "input")
      assert.equal(asked[0].prompt, "Which file?")
      assert.equal(asked[0].data.agent, "file-desk")
      assert.equal(typeof asked[0].data.request.id, "string", "the served agent's own Request rides along")
      assert.notEqual(asked[0].id, asked[0].data.request.id)
    } finally {
      await srv.stop()
    }
  })

  test("durable at both ends: the local halt is resumed later and the remote task completes", async () => {
    const srv = await serveDesk({ store: new FileTaskStore(tempDir()) })
    try {
      const card = `${srv.url}/.well-known/agent-card.json`
      const toolkit = await createToolkit({ agents: [agent({ card, pollEvery: 10 })], builtins: false })
      const halted = JSON.parse(JSON.stringify(await localClient("file-desk_files").run("ask for the file", { toolkit })))
      assert.equal(halted.status, "pending")
      const taskId = halted.pending.data.taskId
      const remoteTask = (await rpc(srv.url, "GetTask", { id: taskId })).result
      assert.equal(remoteTask.status.state, "input-required", "the remote task waits too")

      const wrong = localClient("file-desk_files").runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer: { id: "nope", ok: true } })
      await assert.rejects(wrong, (e) => e.code === "invalid_resume")
      assert.equal((await rpc(srv.url, "GetTask", { id: taskId })).result.status.state, "input-required")

      const done = await localClient("file-desk_files").runWithAnswer({
        toolkit,
        history: halted.messages,
        pending: halted.pending,
        answer: { id: halted.pending.id, ok: true, data: { file: "lib.rs" } },
      })
      assert.equal(done.text, "LOCAL: DONE: picked lib.rs")
      assert.equal((await rpc(srv.url, "GetTask", { id: taskId })).result.status.state, "completed")
    } finally {
      await srv.stop()
    }
  })
})
