// A2A scale-out (issue 29): two Node processes serve one toolkit as an A2A agent over one
// FileTaskStore, behind a local round-robin proxy; everything on 127.0.0.1, started and
// stopped here. 200 SendMessage + GetTask sequences through the proxy all end `completed`
// with their own artifact, the tasks split evenly between the processes and read across them;
// then one process is killed with tasks running, and every one of its tasks ends `failed`
// with a reason naming it (its lease expired) while the survivor's complete: none is left
// `working`. No assertion waits on a fixed delay: polls run until a deadline far beyond need.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import fs, { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { openai, startOpenAIStub } from "./support/stub-server.mjs"
import { startRoundRobinProxy } from "./support/round-robin-proxy.mjs"
import { deferred } from "./support/helpers.mjs"
import { createClient, createToolkit, FileTaskStore } from "../../pkg/node.mjs"

const WORKER = fileURLToPath(new URL("./support/a2a-worker.mjs", import.meta.url))
/** The lease of the test's processes: long beside any pause of a live one, short for the test. */
const LEASE_MS = 10_000
/** How long a poll may go on before the test says what is stuck (never reached when it works). */
const DEADLINE_MS = 90_000
const ENDED = new Set(["completed", "failed", "canceled", "input-required"])

/** The last user message's text of a Chat Completions request body. */
function lastUserText(body) {
  const user = body.messages.filter((m) => m.role === "user").at(-1)
  return typeof user?.content === "string" ? user.content : ""
}

/**
 * The model: answers `ANSWER: <the task>`; a task starting with "hold" is answered only once
 * `gate()` (the current hold, read per request) resolves.
 */
function answering(gate) {
  return (request) => {
    const text = lastUserText(request.body)
    const answer = openai.text(`ANSWER: ${text}`)
    return text.startsWith("hold") ? gate().then(() => answer) : answer
  }
}

/** Starts one worker process; resolves to `{owner, url, child}` once it listens. */
function startWorker(owner, env) {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...env, A2A_OWNER: owner },
    stdio: ["ignore", "pipe", "inherit"],
  })
  return new Promise((resolve, reject) => {
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const found = out.match(/^a2a-worker (\S+) (http:\/\/127\.0\.0\.1:\d+)$/m)
      if (found) resolve({ owner, url: found[2], child })
    })
    child.once("exit", (code) => reject(new Error(`worker ${owner} exited (${code}) before listening: ${out}`)))
  })
}

/** Stops a worker (SIGTERM) and waits for it to exit. */
function stopWorker(worker) {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return Promise.resolve()
  const exited = new Promise((resolve) => worker.child.once("exit", resolve))
  worker.child.kill("SIGTERM")
  return exited
}

/** One JSON-RPC call through the proxy (the reference's wire); a 502 of the proxy is retried. */
async function rpc(endpoint, method, params) {
  for (;;) {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: crypto.randomUUID(), method, params }),
    })
    if (res.status === 502) continue
    assert.equal(res.status, 200, `${method}: HTTP ${res.status}`)
    return res.json()
  }
}

/** Polls GetTask until the task has ended; fails naming the task's last state at the deadline. */
async function untilEnded(endpoint, id, seen) {
  const deadline = Date.now() + DEADLINE_MS
  for (;;) {
    const env = await rpc(endpoint, "GetTask", { id })
    assert.equal(env.error, undefined, `GetTask ${id}: ${JSON.stringify(env.error)} (a task must never be lost)`)
    seen?.push(env.result.status.state)
    if (ENDED.has(env.result.status.state)) return env.result
    assert.ok(Date.now() < deadline, `task ${id} still ${env.result.status.state} after ${DEADLINE_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Runs `work(i)` for i in 0..n-1, at most `width` at a time. */
async function pool(n, width, work) {
  let next = 0
  const results = new Array(n)
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++
        results[i] = await work(i)
      }
    }),
  )
  return results
}

describe("two processes over one FileTaskStore behind a round-robin proxy", () => {
  let stub
  let dir
  let workers = []
  let proxy
  /** Model calls held until released (the "hold" tasks of the kill test). */
  let held = deferred()

  before(async () => {
    stub = await startOpenAIStub()
    stub.respond(answering(() => held.promise))
    dir = mkdtempSync(join(tmpdir(), "a2a-scale-"))
    const env = { A2A_MODEL_URL: stub.baseUrl, A2A_STORE_DIR: dir, A2A_LEASE: String(LEASE_MS) }
    workers = await Promise.all([startWorker("worker-a", env), startWorker("worker-b", env)])
    proxy = await startRoundRobinProxy(workers.map((w) => w.url))
  })

  after(async () => {
    held.resolve()
    await proxy?.close()
    await Promise.all(workers.map(stopWorker))
    await stub?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test("200 SendMessage + GetTask sequences all complete with their own artifact, split over both processes", async () => {
    const endpoint = `${proxy.url}/`
    const before = { ...proxy.counts }
    // The 200 SendMessages first: 200 consecutive requests reach each process 100 times.
    const sent = await pool(200, 25, async (i) => {
      const env = await rpc(endpoint, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: `job ${i}` }] } })
      assert.equal(env.error, undefined, JSON.stringify(env.error))
      assert.equal(env.result.status.state, "submitted")
      assert.equal(env.result.lease, undefined, "the lease stays in the store, off the wire")
      return env.result.id
    })
    for (const w of workers) assert.equal(proxy.counts[w.url] - before[w.url], 100, `${w.owner} took half the SendMessages`)
    assert.equal(new Set(sent).size, 200)
    const states = []
    const ended = await pool(200, 25, (i) => untilEnded(endpoint, sent[i], states))
    ended.forEach((task, i) => {
      assert.equal(task.id, sent[i])
      assert.equal(task.status.state, "completed", `job ${i}: ${JSON.stringify(task.status)}`)
      assert.equal(task.artifacts.length, 1)
      assert.deepEqual(task.artifacts[0].parts, [{ kind: "text", text: `ANSWER: job ${i}` }])
      assert.equal(task.lease, undefined)
    })
    const ranBy = { "worker-a": 0, "worker-b": 0 }
    for (const r of stub.requests) ranBy[r.headers["x-worker"]]++
    assert.deepEqual(ranBy, { "worker-a": 100, "worker-b": 100 }, "each process ran the tasks it was sent")
    assert.ok(proxy.counts[workers[0].url] > 100 && proxy.counts[workers[1].url] > 100, "both answered GetTask polls too")
    // The store: one whole JSON file per task, no temporary file left behind.
    const files = readdirSync(dir)
    assert.equal(files.length, 200)
    for (const file of files) {
      assert.match(file, /^[0-9a-f-]{36}\.json$/)
      const task = JSON.parse(readFileSync(join(dir, file), "utf8"))
      assert.equal(task.status.state, "completed")
    }
  })

  test("killing one process mid-run leaves no task working: its tasks fail by lease, the other's complete", async () => {
    const endpoint = `${proxy.url}/`
    held = deferred()
    stub.respond(answering(() => held.promise))
    const sent = await pool(20, 20, async (i) => {
      const env = await rpc(endpoint, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: `hold ${i}` }] } })
      return env.result.id
    })
    // Every task is running (its model call is held), so each is `working` under its owner's lease.
    await stub.waitForRequests(20)
    const owners = {}
    for (const id of sent) {
      const stored = JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8"))
      assert.equal(stored.status.state, "working")
      assert.ok(Date.parse(stored.lease.expiresAt) > Date.now() - LEASE_MS, "a fresh lease")
      owners[id] = stored.lease.owner
    }
    const [killed, survivor] = workers
    assert.equal(Object.values(owners).filter((o) => o === killed.owner).length, 10)
    assert.equal(Object.values(owners).filter((o) => o === survivor.owner).length, 10)
    const gone = new Promise((resolve) => killed.child.once("exit", resolve))
    killed.child.kill("SIGKILL")
    await gone
    held.resolve()
    const seen = []
    const ended = await Promise.all(sent.map((id) => untilEnded(endpoint, id, seen)))
    ended.forEach((task, i) => {
      if (owners[sent[i]] === survivor.owner) {
        assert.equal(task.status.state, "completed", JSON.stringify(task.status))
        assert.deepEqual(task.artifacts[0].parts, [{ kind: "text", text: `ANSWER: hold ${i}` }])
        return
      }
      assert.equal(task.status.state, "failed", `a task of the killed process: ${JSON.stringify(task.status)}`)
      const reason = task.status.message.parts[0].text
      assert.match(reason, new RegExp(`^A2A task ${sent[i]} failed: the agent process running it \\(worker-a\\) stopped renewing its lease, which expired at \\S+ while the task was working`))
      assert.match(reason, /Send the message again\.$/)
      assert.equal(task.lease, undefined)
    })
    // The store says the same, and keeps who held the lease that lapsed.
    for (const id of sent) {
      const stored = JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8"))
      if (owners[id] === killed.owner) assert.deepEqual([stored.status.state, stored.lease.owner, stored.lease.lapsed], ["failed", "worker-a", true])
      else assert.equal(stored.status.state, "completed")
    }
    // The survivor keeps serving new work through the proxy (the dead backend is skipped).
    const after = await rpc(endpoint, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "after the kill" }] } })
    const done = await untilEnded(endpoint, after.result.id)
    assert.deepEqual(done.artifacts[0].parts, [{ kind: "text", text: "ANSWER: after the kill" }])
    // A restarted process over the same store answers for the old tasks too.
    const restarted = await startWorker("worker-a2", { A2A_MODEL_URL: stub.baseUrl, A2A_STORE_DIR: dir, A2A_LEASE: String(LEASE_MS) })
    workers.push(restarted)
    const again = await rpc(`${restarted.url}/`, "GetTask", { id: sent[0] })
    assert.equal(again.result.status.state, ended[0].status.state)
  })
})

describe("the store and the lease, in one process", () => {
  let stub
  let client
  let held = deferred()
  const dirs = []
  before(async () => {
    stub = await startOpenAIStub()
    stub.respond(answering(() => held.promise))
    client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", retries: 0 })
  })
  after(async () => {
    held.resolve()
    await stub.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "a2a-lease-"))
    dirs.push(dir)
    return dir
  }
  const post = async (handler, method, params, headers = {}) => {
    const res = await handler(new Request("http://127.0.0.1:9/", { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }))
    return res.json()
  }

  test("FileTaskStore writes each task to a temporary name, then renames it over <id>.json", async () => {
    const dir = tempDir()
    const store = new FileTaskStore(dir)
    const calls = []
    const { writeFile, rename } = fs.promises
    fs.promises.writeFile = (file, ...rest) => (calls.push(["write", file.slice(dir.length + 1)]), writeFile(file, ...rest))
    fs.promises.rename = (from, to) => (calls.push(["rename", from.slice(dir.length + 1), to.slice(dir.length + 1)]), rename(from, to))
    try {
      await store.save({ id: "t-1", status: { state: "working" } })
      await store.save({ id: "t-1", status: { state: "completed" } })
    } finally {
      Object.assign(fs.promises, { writeFile, rename })
    }
    assert.equal(calls.length, 4)
    for (const [i, call] of calls.entries()) {
      if (i % 2 === 0) assert.match(call[1], /^t-1\.json\.[a-z0-9]+\.tmp$/, "written under a temporary name")
      else assert.deepEqual(call, ["rename", calls[i - 1][1], "t-1.json"], "then renamed over the task's file")
    }
    assert.deepEqual(readdirSync(dir), ["t-1.json"])
    assert.equal((await store.get("t-1")).status.state, "completed")
  })

  test("GetTask fails an unfinished task whose lease expired, in both dialects, and saves it so", async () => {
    const store = new FileTaskStore(tempDir())
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: { store } })
    const past = "2026-01-01T00:00:00.000Z"
    await store.save({ id: "w", contextId: "c1", status: { state: "working" }, lease: { owner: "gone-1", expiresAt: past } })
    await store.save({ id: "s", status: { state: "submitted" }, lease: { owner: "gone-2", expiresAt: past } })
    await store.save({ id: "live", status: { state: "working" }, lease: { owner: "alive", expiresAt: new Date(Date.now() + 3_600_000).toISOString() } })
    await store.save({ id: "old", status: { state: "working" } }) // no lease (leases off, or an older writer): left alone
    const w = (await post(handler, "GetTask", { id: "w" })).result
    assert.deepEqual(w, {
      id: "w",
      contextId: "c1",
      status: {
        state: "failed",
        message: { role: "agent", parts: [{ kind: "text", text: `A2A task w failed: the agent process running it (gone-1) stopped renewing its lease, which expired at ${past} while the task was working; the process ended or lost its store. Send the message again.` }] },
      },
    })
    assert.deepEqual((await store.get("w")).lease, { owner: "gone-1", expiresAt: past, lapsed: true })
    assert.deepEqual((await post(handler, "GetTask", { id: "w" })).result, w, "answered the same again")
    const s = (await post(handler, "GetTask", { id: "s" }, { "a2a-version": "1.0" })).result
    assert.equal(s.status.state, "TASK_STATE_FAILED")
    assert.match(s.status.message.parts[0].text, /\(gone-2\) .* while the task was submitted;/)
    assert.equal("lease" in s, false)
    const live = (await post(handler, "GetTask", { id: "live" })).result
    assert.deepEqual(live, { id: "live", status: { state: "working" } }, "a live lease: still working, the lease off the wire")
    assert.equal((await post(handler, "GetTask", { id: "old" })).result.status.state, "working")
  })

  test("an owner that finishes after its lease was declared lapsed leaves the task failed", async () => {
    const store = new FileTaskStore(tempDir())
    const events = []
    const tk = await createToolkit({ builtins: false })
    const handler = tk.handler({ client, a2a: { store, owner: "slow-one" }, onTask: (e) => void events.push(e) })
    held = deferred()
    stub.respond(answering(() => held.promise))
    const sent = (await post(handler, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "hold on" }] } })).result
    await stub.waitForRequests(1)
    const working = await store.get(sent.id)
    assert.equal(working.status.state, "working")
    assert.equal(working.lease.owner, "slow-one")
    // What another process's GetTask saves when it finds the lease expired.
    await store.save({ id: sent.id, status: { state: "failed", message: { role: "agent", parts: [{ kind: "text", text: "lapsed" }] } }, lease: { ...working.lease, lapsed: true } })
    held.resolve()
    for (;;) {
      if (events.length === 1) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    assert.equal(events[0].state, "failed", "onTask hears the task as it stays")
    assert.equal(events[0].result.text, "ANSWER: hold on", "with the run's late result")
    assert.equal((await store.get(sent.id)).status.state, "failed")
    assert.equal((await post(handler, "GetTask", { id: sent.id })).result.status.message.parts[0].text, "lapsed")
  })

  test("lease 0 saves no lease; the default lease is 30 s ahead, owned by this process", async () => {
    const saved = []
    const store = { map: new Map(), async get(id) { return this.map.get(id) }, async save(t) { saved.push(t); this.map.set(t.id, t) } }
    const tk = await createToolkit({ builtins: false })
    const off = tk.handler({ client, a2a: { store, lease: 0 } })
    await post(off, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "x" }] }, configuration: { blocking: true } })
    assert.deepEqual(saved.map((t) => [t.status.state, "lease" in t]), [["submitted", false], ["working", false], ["completed", false]])
    saved.length = 0
    const on = tk.handler({ client, a2a: { store } })
    const start = Date.now()
    await post(on, "SendMessage", { message: { role: "user", parts: [{ kind: "text", text: "y" }] }, configuration: { blocking: true } })
    const [submitted, working, completed] = saved
    assert.match(submitted.lease.owner, new RegExp(`^pid-${process.pid}-[0-9a-f]{8}$`))
    assert.equal(working.lease.owner, submitted.lease.owner)
    assert.ok(Date.parse(working.lease.expiresAt) >= start + 30_000, "30 s ahead")
    assert.equal(completed.lease, undefined, "an ended task has no lease")
  })
})
