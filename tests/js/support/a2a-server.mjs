// A real A2A 1.0 agent for the tests: the official SDK (@a2a-js/sdk) — its DefaultRequestHandler,
// InMemoryTaskStore, and the Express JSON-RPC and Agent Card handlers it ships — on 127.0.0.1
// (port 0), with the CORS headers a browser page needs. What the executor does depends on the
// task text:
//   "fail …"      working, then failed with the status message "boom"
//   "slow …"      working, and never ends (until the server closes)
//   "question …"  input-required, asking "Which file?"; the follow-up message on that task
//                 (its answer) completes it with the artifact "FILE: <the follow-up's text>"
//   anything else working; completed with the artifact "REVIEWED: <text>" once the task was
//                 polled (GetTask) twice: the poll count, not a timer, decides
// Every request is recorded in `requests` ({method, path, rpc, headers}).
import { createServer } from "node:http"
import express from "express"
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server"
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express"
import { TaskState, Role } from "@a2a-js/sdk"

const text = (t) => ({ content: { $case: "text", value: t }, metadata: undefined, filename: "", mediaType: "text/plain" })
const agentMessage = (t, taskId, contextId) => ({
  messageId: crypto.randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [text(t)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
})
const status = (state, message) => ({ state, message, timestamp: new Date().toISOString() })

class ReviewExecutor {
  constructor(polled, closing) {
    this.polled = polled
    this.closing = closing
  }

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx
    const input = ctx.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")
    const update = (state, message) => bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(state, message), metadata: undefined }))
    if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      // The answer to "Which file?": the follow-up message names this task.
      update(TaskState.TASK_STATE_WORKING)
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: crypto.randomUUID(), name: "file", description: "", parts: [text(`FILE: ${input}`)], metadata: undefined, extensions: [] },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      )
      update(TaskState.TASK_STATE_COMPLETED)
      bus.finished()
      return
    }
    bus.publish(
      AgentEvent.task({ id: taskId, contextId, status: status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [ctx.userMessage], metadata: undefined }),
    )
    update(TaskState.TASK_STATE_WORKING)
    if (input.startsWith("fail")) {
      update(TaskState.TASK_STATE_FAILED, agentMessage("boom", taskId, contextId))
    } else if (input.startsWith("slow")) {
      await this.closing
      update(TaskState.TASK_STATE_CANCELED)
    } else if (input.startsWith("question")) {
      update(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage("Which file?", taskId, contextId))
    } else {
      await this.polled(taskId, 2)
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: crypto.randomUUID(), name: "review", description: "", parts: [text(`REVIEWED: ${input}`)], metadata: undefined, extensions: [] },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      )
      update(TaskState.TASK_STATE_COMPLETED)
    }
    bus.finished()
  }

  async cancelTask(taskId, bus) {
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: "", status: status(TaskState.TASK_STATE_CANCELED), metadata: undefined }))
    bus.finished()
  }
}

/**
 * Starts the agent; `name` is the card's name; `cors: false` sends no CORS headers (a page's
 * requests are then refused). Resolves to {cardUrl, url, requests, rpc(method), close}.
 */
export async function startA2AServer({ name = "Review Desk", cors = true } = {}) {
  const requests = []
  const polls = new Map()
  const waiters = []
  let stop
  const closing = new Promise((resolve) => (stop = resolve))
  const polled = (taskId, n) =>
    new Promise((resolve) => {
      waiters.push({ taskId, n, resolve })
      wake()
    })
  const wake = () => {
    for (const w of waiters.splice(0)) {
      if ((polls.get(w.taskId) ?? 0) >= w.n) w.resolve()
      else waiters.push(w)
    }
  }

  const app = express()
  app.use((req, res, next) => {
    if (!cors) return next()
    res.setHeader("Access-Control-Allow-Origin", "*")
    res.setHeader("Access-Control-Allow-Headers", "content-type, accept, a2a-version, authorization")
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
    if (req.method === "OPTIONS") {
      requests.push({ method: "OPTIONS", path: req.path, rpc: undefined, headers: { ...req.headers } })
      return res.status(204).end()
    }
    next()
  })
  app.use(express.json())
  app.use((req, res, next) => {
    const rpc = req.body && typeof req.body === "object" ? req.body : undefined
    requests.push({ method: req.method, path: req.path, rpc, headers: { ...req.headers } })
    if (rpc?.method === "GetTask") {
      const id = rpc.params?.id
      polls.set(id, (polls.get(id) ?? 0) + 1)
      // The count is in before the SDK answers, so the executor may complete this very task.
      wake()
    }
    next()
  })

  const server = createServer(app)
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${server.address().port}`
  const card = {
    name,
    description: "Reviews code (the official A2A SDK)",
    supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "review", name: "Review", description: "Review some code", tags: ["code"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
      { id: "plan.it", name: "Plan", description: "Plan a task", tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  }
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ReviewExecutor(polled, closing))
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))

  return {
    cardUrl: `${base}/.well-known/agent-card.json`,
    url: base,
    requests,
    rpc: (method) => requests.filter((r) => r.rpc?.method === method),
    async close() {
      stop()
      server.closeAllConnections?.()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

// Run directly (`node tests/js/support/a2a-server.mjs`): serve until killed, printing the card URL.
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startA2AServer()
  console.log(`a2a test server: ${server.cardUrl}`)
}
