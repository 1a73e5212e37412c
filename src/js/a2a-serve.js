// Serving a toolkit as an A2A agent (SPEC §7B): the Agent Card, the JSON-RPC routes
// (`SendMessage`, `GetTask`) and the task stores. Plain JavaScript bundled into every entry
// (scripts/bundle-entry.mjs), like serve.js: the protocol is a handful of JSON shapes around
// `client.run`, which already lives in the module, and the stores are the platform's (a Map,
// the file system). Nothing is imported at the top level that a page could not bundle.
//
// Two dialects are answered, chosen per request: the reference's (`state: "completed"`, parts
// `{kind: "text", text}`, the Task bare as the result, `SendMessage` returning at once) and
// A2A 1.0 as the official SDKs speak it (an `A2A-Version: 1.0` header or `ROLE_*` roles:
// `TASK_STATE_*`, parts `{text}`, the result wrapped as `{task}`, and `SendMessage` waiting for
// the task to end unless `configuration.returnImmediately`). The store always holds the
// reference's shape, plus the lease of an unfinished task (a2a-lease.js), never sent. A body is
// read under a cap (request-body.js), so a huge one is refused without being buffered.
//
// A run that halts on a SPEC §10 suspension saves its task `input-required`: the status
// message carries the Request's prompt as text and the Request itself as a data part
// `{pending: Request}`, and the halted run (`pending`, and the transcript when the task has no
// `contextId`; with one, the client's conversation store keeps it) is saved with the task under
// `suspended`, which no response shows. A follow-up `SendMessage` whose message names the task
// (`taskId`) and carries a data part `{answer: Answer}` resumes it through `resume`
// (`runWithAnswer`, or `askWithAnswer` for a context).
import { ToolnexusError } from "./errors.js"
import { errorText } from "./stores.js"
import { fileSystem } from "./file-system.js"
import { IndexedDbTaskStore } from "./idb-task-store.js"
import { DEFAULT_MAX_BODY_BYTES } from "./request-body.js"
import { jsonAnswer as json } from "./serve-exchange.js"
import { lapsed, lapsedFrom, lapsedTask, leased, leaseOf, renewLease, withoutLease } from "./a2a-lease.js"

const CARD_PATH = "/.well-known/agent-card.json"
const PROTOCOL_VERSION = "0.3.0"
const DEFAULT_VERSION = "0.1.0"

/** The A2A 0.3 method names a peer may still send, and their A2A 1.0 names. */
const OLD_METHODS = {
  "message/send": "SendMessage",
  "message/stream": "SendStreamingMessage",
  "tasks/get": "GetTask",
  "tasks/cancel": "CancelTask",
  "tasks/resubscribe": "SubscribeToTask",
}

// ---------------------------------------------------------------------------------------------
// Task stores.
// ---------------------------------------------------------------------------------------------

/** The task an `InMemoryTaskStore` holds under `id`, read in place (never to be changed). */
let peekStored

/**
 * Tasks in this process's memory (the default store): they last as long as the handler.
 *
 * ```js
 * const store = new InMemoryTaskStore()
 * await store.save({ id: "t1", status: { state: "submitted" } })
 * (await store.get("t1")).status.state // "submitted"
 * ```
 */
export class InMemoryTaskStore {
  #tasks = new Map()

  static {
    // GetTask's read of the stored task itself, not a copy: it only reads it (every step
    // after makes a new object), so the copy `get` makes for any other caller is not needed
    // (a subclass, which may override `get`, is read through `get`).
    peekStored = (store, id) => store.#tasks.get(id)
  }

  /** The task saved under `id` (a copy), or `undefined`. */
  async get(id) {
    const task = this.#tasks.get(id)
    return task === undefined ? undefined : structuredClone(task)
  }

  /** Saves `task` under `task.id`, replacing what was there. */
  async save(task) {
    this.#tasks.set(task.id, structuredClone(task))
  }
}

/** A task id as a file name: anything but letters, digits, `-` and `_` becomes `_`. */
const fileName = (id) => `${String(id).replace(/[^A-Za-z0-9_-]/g, "_")}.json`

/**
 * Tasks on disk (Node, Bun, Deno): one `<id>.json` per task under `dir` (made if missing),
 * written to a temporary name and renamed, so a reader never sees half a task. Two handlers,
 * in one process or two, serving the same `dir` answer `GetTask` for each other's tasks.
 *
 * ```js
 * const store = new FileTaskStore("/var/lib/agent/tasks")
 * Deno.serve(toolkit.handler({ client, a2a: { name: "desk", store } }))
 * ```
 */
export class FileTaskStore {
  #dir
  #fs

  /** Makes `dir` when it does not exist; throws `unsupported` where there is no file system. */
  constructor(dir) {
    if (typeof dir !== "string" || dir === "") {
      throw new ToolnexusError("invalid_options", `FileTaskStore: dir must be a non-empty string, got ${JSON.stringify(dir) ?? typeof dir}`)
    }
    this.#fs = fileSystem("FileTaskStore", "use InMemoryTaskStore or a store object of your own ({get, save})")
    this.#dir = dir.replace(/[\\/]+$/, "") || dir
    this.#fs.mkdirSync(this.#dir)
  }

  /** The directory the tasks are in. */
  get dir() {
    return this.#dir
  }

  #file(id) {
    return `${this.#dir}/${fileName(id)}`
  }

  /** The task saved under `id`, or `undefined` when there is none (or it cannot be read). */
  async get(id) {
    try {
      const text = await this.#fs.read(this.#file(id))
      return text === undefined ? undefined : JSON.parse(text)
    } catch {
      return undefined
    }
  }

  /** Writes `task` to `<dir>/<id>.json` through a temporary file and a rename. */
  async save(task) {
    const target = this.#file(task.id)
    const temporary = `${target}.${Math.random().toString(36).slice(2)}.tmp`
    try {
      await this.#fs.write(temporary, JSON.stringify(task))
      await this.#fs.rename(temporary, target)
    } catch (thrown) {
      await this.#fs.remove(temporary)
      throw thrown
    }
  }
}

/**
 * The store a selector names: absent or `"memory"` a new {@link InMemoryTaskStore},
 * `"file:<dir>"` a {@link FileTaskStore}, `"indexeddb"` or `"indexeddb:<database>"` an
 * {@link IndexedDbTaskStore} (browsers and their workers), an object with `get` and `save`
 * itself.
 *
 * ```js
 * resolveStore("file:./tasks") instanceof FileTaskStore // true
 * resolveStore("indexeddb:desk") instanceof IndexedDbTaskStore // true, in a page or a worker
 * ```
 */
export function resolveStore(store) {
  if (store === undefined || store === null || store === "memory") return new InMemoryTaskStore()
  if (typeof store === "string") {
    if (store.startsWith("file:")) return new FileTaskStore(store.slice("file:".length))
    if (store === "indexeddb") return new IndexedDbTaskStore()
    if (store.startsWith("indexeddb:")) return new IndexedDbTaskStore(store.slice("indexeddb:".length) || undefined)
    throw new ToolnexusError("invalid_options", `Unknown A2A store: "${store}" (expected "memory", "file:<dir>" or "indexeddb[:<database>]")`)
  }
  if (typeof store === "object" && typeof store.get === "function" && typeof store.save === "function") return store
  throw new ToolnexusError(
    "invalid_options",
    `a2a.store: expected "memory", "file:<dir>", "indexeddb[:<database>]" or an object with get(id) and save(task), got ${typeof store}`,
  )
}

/** A non-negative integer option of the A2A profile (`min` 1 for a cap), else `invalid_options`. */
function integerOption(config, key, min, fallback) {
  const value = config?.[key]
  if (value === undefined || value === null) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new ToolnexusError("invalid_options", `a2a.${key}: expected an integer of at least ${min}, got ${JSON.stringify(value) ?? typeof value}`)
  }
  return value
}

// ---------------------------------------------------------------------------------------------
// The Agent Card.
// ---------------------------------------------------------------------------------------------

/**
 * The Agent Card of a served toolkit: its skills (`{name, description}`, filtered to
 * `config.skills`), never its raw tools; `url` is the JSON-RPC endpoint. The reference's
 * fields and defaults, plus A2A 1.0's `supportedInterfaces` (one JSON-RPC interface at `url`).
 *
 * ```js
 * buildAgentCard({ name: "desk" }, [{ name: "review", description: "Reviews code" }], "http://127.0.0.1:8080/")
 * // { name: "desk", description: "", version: "0.1.0", protocolVersion: "0.3.0", …, url: "http://127.0.0.1:8080/" }
 * ```
 */
export function buildAgentCard(config, skills, url) {
  const wanted = Array.isArray(config?.skills) ? config.skills : undefined
  const selected = wanted ? skills.filter((s) => wanted.includes(s.name)) : skills
  const card = {
    name: config?.name ?? "toolnexus-agent",
    description: config?.description ?? "",
    version: config?.version ?? DEFAULT_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: selected.map((s) => ({ id: s.name, name: s.name, description: s.description ?? "" })),
    url,
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  }
  if (config?.provider) card.provider = config.provider
  return card
}

// ---------------------------------------------------------------------------------------------
// The wire.
// ---------------------------------------------------------------------------------------------

const rpcResult = (id, result) => json({ jsonrpc: "2.0", id: id ?? null, result })
const rpcError = (id, code, message) => json({ jsonrpc: "2.0", id: id ?? null, error: { code, message } })

/** Whether a request speaks A2A 1.0 (its header, or a `ROLE_*` role on its message). */
function speaksV1(view, params) {
  const version = view.header("a2a-version")
  if (version !== undefined) return !version.trim().startsWith("0.")
  const role = params?.message?.role
  return typeof role === "string" && role.startsWith("ROLE_")
}

/** A stored task as the wire shows it: without the halted run kept for its resume, nor its lease. */
function shown(task) {
  if (task?.suspended === undefined && task?.lease === undefined) return task
  const { suspended: _, lease: _lease, ...rest } = task
  return rest
}

/** A part in A2A 1.0's JSON: `{text}` or `{data}`. */
const partV1 = (p) => (p.kind === "data" ? { data: p.data } : { text: p.text })

/** A stored task (the reference's shape) in A2A 1.0's JSON. */
function taskV1(task) {
  const state = `TASK_STATE_${task.status.state.toUpperCase().replace(/-/g, "_")}`
  const out = { id: task.id, contextId: task.contextId ?? "", status: { state } }
  if (task.status.message) out.status.message = messageV1(task.status.message, task)
  if (task.artifacts) {
    out.artifacts = task.artifacts.map((a) => ({ artifactId: a.artifactId, parts: a.parts.map(partV1) }))
  }
  return out
}

function messageV1(message, task) {
  return {
    messageId: message.messageId ?? `${task.id}-status`,
    role: message.role === "agent" ? "ROLE_AGENT" : "ROLE_USER",
    parts: message.parts.map(partV1),
    taskId: task.id,
    contextId: task.contextId ?? "",
  }
}

/** The text of a message's text parts (`{kind: "text", text}` or 1.0's `{text}`), joined. */
function messageText(message) {
  const texts = message.parts
    .filter((p) => p && typeof p === "object" && (p.kind === undefined || p.kind === "text") && typeof p.text === "string")
    .map((p) => p.text)
  return texts.length === 0 ? undefined : texts.join("")
}

const agentText = (text) => ({ role: "agent", parts: [{ kind: "text", text }] })

/** The status message of a suspended task: the prompt, and the Request as a data part. */
const asking = (pending) => ({ role: "agent", parts: [{ kind: "text", text: pending.prompt }, { kind: "data", data: { pending } }] })

/** The Answer a follow-up message carries: the first data part `{answer: {...}}` (either dialect). */
function answerOf(message) {
  const part = message.parts.find(
    (p) => p && typeof p === "object" && (p.kind === undefined || p.kind === "data") && p.data && typeof p.data === "object" && p.data.answer !== undefined,
  )
  return part?.data.answer
}

/** Plain JSON (what every store can keep) of a run's transcript. */
const plain = (value) => JSON.parse(JSON.stringify(value))

// ---------------------------------------------------------------------------------------------
// The profile.
// ---------------------------------------------------------------------------------------------

/**
 * The A2A routes over `run` (one task's agent loop: `(text, contextId) => Promise<RunResult>`)
 * and `resume` (a suspended task's run continued: `({pending, messages?}, answer, contextId) =>
 * Promise<RunResult>`): a function of a request view to an answer (serve-exchange.js),
 * `(view) => Promise<{status, headers, body}> | undefined`, `undefined` for a request that is
 * not an A2A route (the caller tries its other profiles, then 404).
 */
export function a2aRoutes({ config, skills, run, resume, onTask }) {
  const store = resolveStore(config?.store)
  const maxBodyBytes = integerOption(config, "maxBodyBytes", 1, DEFAULT_MAX_BODY_BYTES)
  if (config?.owner !== undefined && (typeof config.owner !== "string" || config.owner === "")) {
    throw new ToolnexusError("invalid_options", `a2a.owner: expected a non-empty string, got ${JSON.stringify(config.owner) ?? typeof config.owner}`)
  }
  const lease = leaseOf({ ...config, lease: integerOption(config, "lease", 0, undefined) })
  /** Tasks whose resume has begun in this process (a second answer in the same tick is refused). */
  const resuming = new Set()

  /** Runs `work` (the task's run, or its resume) and saves where it ended. */
  async function fulfil(task, work) {
    const { id, contextId } = task
    let result
    let finished
    let stopRenewing = async () => {}
    try {
      const working = { id, ...(contextId ? { contextId } : {}), status: { state: "working" } }
      await store.save(leased(working, lease))
      stopRenewing = renewLease(store, working, lease)
      result = await work()
      if (result?.status === "pending" && result.pending) {
        const pending = plain(result.pending)
        const suspended = contextId === undefined ? { pending, messages: plain(result.messages) } : { pending }
        finished = { id, contextId, status: { state: "input-required", message: asking(pending) }, suspended }
      } else {
        const artifact = { artifactId: crypto.randomUUID(), parts: [{ kind: "text", text: result?.text ?? "" }] }
        finished = { id, contextId, status: { state: "completed" }, artifacts: [artifact] }
      }
    } catch (thrown) {
      finished = { id, contextId, status: { state: "failed", message: agentText(errorText(thrown)) } }
    } finally {
      resuming.delete(id)
    }
    try {
      await stopRenewing()
      // Another process declared this task's lease lapsed (this one stalled): the task stays ended.
      const stored = await Promise.resolve().then(() => store.get(id)).catch(() => undefined)
      if (lapsedFrom(stored, lease.owner)) finished = withoutLease(stored)
      else await store.save(finished)
    } catch {
      // A store that fails to write must not end the handler; GetTask reports what it has.
    }
    if (typeof onTask === "function") {
      try {
        await onTask({ id, task: shown(finished), result, state: finished.status.state })
      } catch {
        // A host callback's failure is its own.
      }
    }
    return finished
  }

  /** The answer to a suspended task: checked, then its run resumed (`taskId` on the message). */
  async function answerTask(view, rpc, message) {
    const taskId = message.taskId
    const task = await store.get(taskId)
    if (!task) return rpcError(rpc.id, -32001, `Task not found: ${taskId}`)
    const state = resuming.has(taskId) ? "working" : task.status?.state
    if (state !== "input-required") {
      return rpcError(rpc.id, -32004, `Task ${taskId} is ${state}, not input-required: only a task waiting for input takes a follow-up message`)
    }
    if (!task.suspended?.pending) {
      return rpcError(rpc.id, -32004, `Task ${taskId} is input-required, but its halted run was not kept with it, so it cannot be resumed`)
    }
    const pending = task.suspended.pending
    const answer = answerOf(message)
    if (!answer || typeof answer !== "object" || Array.isArray(answer) || typeof answer.ok !== "boolean") {
      return rpcError(
        rpc.id,
        -32602,
        `Invalid params: task ${taskId} is waiting for input: send the Answer as a data part {"answer": {"id": "${pending.id}", "ok": true, "data": {...}}}`,
      )
    }
    if (answer.id !== undefined && answer.id !== pending.id) {
      return rpcError(rpc.id, -32602, `Invalid params: the answer's id ${JSON.stringify(answer.id)} is not the id of the request task ${taskId} waits on (${JSON.stringify(pending.id)}); the task still waits`)
    }
    if (typeof resume !== "function") return rpcError(rpc.id, -32603, "Internal error: this handler cannot resume a task")
    resuming.add(taskId)
    const v1 = speaksV1(view, rpc.params)
    const contextId = task.contextId
    const working = { id: taskId, ...(contextId ? { contextId } : {}), status: { state: "working" } }
    const running = fulfil(task, () => resume(task.suspended, { ...answer, id: pending.id }, contextId))
    const blocking = v1 ? rpc.params.configuration?.returnImmediately !== true : rpc.params.configuration?.blocking === true
    if (!blocking) return rpcResult(rpc.id, v1 ? { task: taskV1(working) } : working)
    const finished = shown(await running)
    return rpcResult(rpc.id, v1 ? { task: taskV1(finished) } : finished)
  }

  async function sendMessage(view, rpc) {
    const params = rpc.params
    const message = params?.message
    if (!message || typeof message !== "object" || !Array.isArray(message.parts)) {
      return rpcError(rpc.id, -32602, "Invalid params: SendMessage needs params.message with a parts array")
    }
    if (message.taskId !== undefined && message.taskId !== null && message.taskId !== "") {
      if (typeof message.taskId !== "string") return rpcError(rpc.id, -32602, "Invalid params: message.taskId must be a string")
      return answerTask(view, rpc, message)
    }
    const text = messageText(message)
    if (text === undefined) return rpcError(rpc.id, -32602, "Invalid params: the message has no text part (this agent reads text only)")
    const v1 = speaksV1(view, params)
    const contextId = typeof message.contextId === "string" && message.contextId !== "" ? message.contextId : undefined
    const submitted = { id: crypto.randomUUID(), ...(contextId ? { contextId } : {}), status: { state: "submitted" } }
    await store.save(leased(submitted, lease))
    const running = fulfil(submitted, () => run(text, contextId))
    const blocking = v1 ? params.configuration?.returnImmediately !== true : params.configuration?.blocking === true
    if (!blocking) return rpcResult(rpc.id, v1 ? { task: taskV1(submitted) } : submitted)
    const finished = shown(await running)
    return rpcResult(rpc.id, v1 ? { task: taskV1(finished) } : finished)
  }

  async function getTask(view, rpc) {
    const id = rpc.params?.id
    if (typeof id !== "string" || id === "") return rpcError(rpc.id, -32602, "Invalid params: GetTask needs params.id")
    let task = Object.getPrototypeOf(store) === InMemoryTaskStore.prototype ? peekStored(store, id) : await store.get(id)
    if (!task) return rpcError(rpc.id, -32001, `Task not found: ${id}`)
    if (lapsed(task)) {
      task = lapsedTask(task)
      try {
        await store.save(task)
      } catch {
        // Answered failed all the same; the next GetTask tries the save again.
      }
    }
    task = shown(task)
    return rpcResult(rpc.id, speaksV1(view, rpc.params) ? taskV1(task) : task)
  }

  async function answer(view) {
    let body
    try {
      body = await view.readText(maxBodyBytes)
    } catch {
      return rpcError(null, -32700, "Parse error: the request body could not be read")
    }
    if (typeof body !== "string") {
      const why = `Invalid Request: the body is larger than ${maxBodyBytes} bytes (a2a.maxBodyBytes); nothing of it was run`
      return json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: why } }, 413)
    }
    let rpc
    try {
      rpc = JSON.parse(body)
    } catch {
      return rpcError(null, -32700, "Parse error")
    }
    if (Array.isArray(rpc)) return rpcError(null, -32600, "Invalid Request: batches are not supported")
    if (!rpc || typeof rpc !== "object" || typeof rpc.method !== "string") {
      return rpcError(rpc?.id, -32600, "Invalid Request: expected a JSON-RPC 2.0 request object with a method")
    }
    try {
      if (rpc.method === "SendMessage") return await sendMessage(view, rpc)
      if (rpc.method === "GetTask") return await getTask(view, rpc)
    } catch (thrown) {
      return rpcError(rpc.id, -32603, `Internal error: ${errorText(thrown)}`)
    }
    const newer = Object.hasOwn(OLD_METHODS, rpc.method) ? OLD_METHODS[rpc.method] : undefined
    const hint = newer ? ` (an A2A 0.3 method name; this agent speaks A2A 1.0, where it is ${newer})` : ""
    return rpcError(rpc.id, -32601, `Method not found: ${rpc.method}${hint}`)
  }

  return function route(view) {
    if (view.method === "GET" && view.path === CARD_PATH) {
      const endpoint = typeof config?.url === "string" ? config.url : `${view.origin}/`
      return Promise.resolve(json(buildAgentCard(config, skills(), endpoint)))
    }
    if (view.method === "POST" && view.path === "/") return answer(view)
    return undefined
  }
}
