// bash (offered only with an exec function; exec: "node" uses child_process), the toggles,
// question's suspension through toolkit.execute, todowrite, and webfetch against a local server.
import { test, after, before } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import * as childProcess from "node:child_process"
import os from "node:os"
import path from "node:path"
import { createToolkit } from "../../pkg/node.mjs"

const names = (toolkit) => toolkit.tools().map((t) => t.name)
const tmp = mkdtempSync(path.join(os.tmpdir(), "toolnexus-js-exec-"))
after(() => rmSync(tmp, { recursive: true, force: true }))

test("without exec there is no bash at all; with one it comes first", async () => {
  const plain = await createToolkit()
  assert.equal(plain.get("bash"), undefined)
  assert.ok(!JSON.stringify(plain.toAnthropic()).includes('"bash"'))
  const seen = []
  const exec = (command, options) => {
    seen.push([command, options])
    return { output: `ran ${command}\n`, exitCode: 0 }
  }
  const toolkit = await createToolkit({ exec })
  assert.equal(names(toolkit)[0], "bash")
  assert.deepEqual(toolkit.get("bash").inputSchema.required, ["command"])
  const r = await toolkit.execute("bash", { command: "ls", workdir: "/srv", timeout: 1500 })
  assert.deepEqual(r, { output: "ran ls\n", isError: false, metadata: { exitCode: 0 } })
  assert.deepEqual(seen, [["ls", { workdir: "/srv", timeout: 1500 }]])
  await toolkit.execute("bash", { command: "pwd" })
  assert.deepEqual(seen[1], ["pwd", { timeout: 60000 }])
})

test("the toggles apply to bash like any built-in", async () => {
  const exec = async () => ({ output: "", exitCode: 0 })
  assert.equal((await createToolkit({ exec, builtins: { tools: { bash: false } } })).get("bash"), undefined)
  assert.deepEqual(names(await createToolkit({ exec, builtins: false })), [])
  const only = await createToolkit({ exec, builtins: { tools: { read: false, write: false } } })
  assert.ok(names(only).includes("bash") && !names(only).includes("read") && !names(only).includes("write"))
  assert.equal((await createToolkit({ exec, disableTools: ["bash"] })).get("bash"), undefined)
  assert.equal((await createToolkit({ exec: false })).get("bash"), undefined)
})

test("a host exec's failures are error results", async () => {
  const replies = {
    fails: { output: "bad\n", exitCode: 4 },
    slow: { output: "half", exitCode: null, timedOut: true },
    weird: 42,
  }
  const exec = async (command) => {
    if (command === "throws") throw new Error("no shell here")
    return replies[command]
  }
  const toolkit = await createToolkit({ exec })
  const run = (command) => toolkit.execute("bash", { command, timeout: 10 })
  assert.deepEqual(await run("fails"), { output: "bad\n\nbash: command exited with code 4", isError: true, metadata: { exitCode: 4 } })
  assert.deepEqual(await run("slow"), { output: "bash: command timed out after 10ms\nhalf", isError: true, metadata: {} })
  assert.deepEqual(await run("throws"), { output: "bash: no shell here", isError: true })
  assert.deepEqual(await run("weird"), { output: "bash: exec must resolve to {output, exitCode}", isError: true })
  const never = await createToolkit({ exec: () => new Promise(() => {}) })
  const hung = await never.execute("bash", { command: "x", timeout: 5 })
  assert.deepEqual(hung, { output: "bash: command timed out after 5ms", isError: true, metadata: {} })
})

for (const [label, exec] of [['exec: "node"', "node"], ["exec: the child_process module", childProcess]]) {
  test(`${label} runs real commands: merged output, exit codes, workdir, timeout`, async () => {
    const toolkit = await createToolkit({ exec })
    const both = await toolkit.execute("bash", { command: "echo out; echo err 1>&2; echo again" })
    assert.deepEqual(both, { output: "out\nerr\nagain\n", isError: false, metadata: { exitCode: 0 } })
    const failed = await toolkit.execute("bash", { command: "echo nope; exit 3" })
    assert.deepEqual(failed, { output: "nope\n\nbash: command exited with code 3", isError: true, metadata: { exitCode: 3 } })
    const where = await toolkit.execute("bash", { command: "pwd", workdir: tmp })
    assert.equal(where.output.trim(), tmp)
    const slow = await toolkit.execute("bash", { command: "echo started; sleep 5", timeout: 300 })
    assert.equal(slow.isError, true)
    assert.match(slow.output, /^bash: command timed out after 300ms\n/)
    const missingDir = await toolkit.execute("bash", { command: "pwd", workdir: path.join(tmp, "nope") })
    assert.equal(missingDir.isError, true)
    assert.match(missingDir.output, /^bash: .*ENOENT/)
  })
}

test("a bad exec option rejects with invalid_options", async () => {
  for (const exec of ["python", 5, { run() {} }]) {
    await assert.rejects(createToolkit({ exec }), { code: "invalid_options" }, String(exec))
  }
})

test("question suspends with the rendered prompt; the retry with an answer returns its data", async () => {
  const toolkit = await createToolkit()
  const questions = [{ question: "Color?", header: "C", options: ["red", "blue"] }, { question: "Why?" }]
  const first = await toolkit.execute("question", { questions })
  assert.equal(first.isError, true)
  assert.equal(first.output, "Color? (options: red, blue)\nWhy?")
  const request = first.metadata.pending
  assert.equal(request.kind, "question")
  assert.match(request.id, /^pnd-[0-9a-f]{16}$/)
  assert.deepEqual(request.data, { questions })
  const answer = { id: request.id, ok: true, data: { answers: [["red"], ["because"]] } }
  const second = await toolkit.execute("question", { questions }, { answer })
  assert.deepEqual(second, { output: '{"answers":[["red"],["because"]]}', isError: false })
})

test("todowrite renders the list", async () => {
  const toolkit = await createToolkit()
  const todos = [{ id: "1", text: "plan", completed: true }, { id: "2", text: "build", completed: false }]
  const r = await toolkit.execute("todowrite", { todos })
  assert.deepEqual(r, { output: "[x] plan\n[ ] build", isError: false, metadata: { todos } })
})

let server
let base
const aborted = [] // URLs of /slow requests whose connection closed before the answer
before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html" })
      res.end("<html><head><title>t</title></head><body><h1>Hello</h1><p>A <a href='/x'>link</a>.</p><script>x()</script></body></html>")
    } else if (req.url === "/slow") {
      res.on("close", () => aborted.push(req.url))
      setTimeout(() => { if (!res.destroyed) { res.writeHead(200); res.end("late") } }, 3000)
    } else {
      res.writeHead(404)
      res.end("<h1>nope</h1>")
    }
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${server.address().port}`
})
after(() => { server.closeAllConnections?.(); server.close() })

test("webfetch over fetch: markdown by default, text, html, HTTP <status>, timeout", async () => {
  const toolkit = await createToolkit()
  const md = await toolkit.execute("webfetch", { url: `${base}/page` })
  assert.deepEqual(md, { output: "# Hello\n\nA [link](/x).", isError: false, metadata: { status: 200, format: "markdown" } })
  const text = await toolkit.execute("webfetch", { url: `${base}/page`, format: "text" })
  assert.equal(text.output, "Hello\n\nA link.")
  const raw = await toolkit.execute("webfetch", { url: `${base}/page`, format: "html" })
  assert.match(raw.output, /^<html><head>/)
  const missing = await toolkit.execute("webfetch", { url: `${base}/missing` })
  assert.deepEqual(missing, { output: "HTTP 404", isError: true, metadata: { status: 404 } })
  const slow = await toolkit.execute("webfetch", { url: `${base}/slow`, timeout: 0.2 })
  assert.deepEqual(slow, { output: "webfetch: timed out after 0.2 s", isError: true })
  // The timed-out request is aborted, not left open until the server answers (3 s later).
  for (let i = 0; i < 100 && aborted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.deepEqual(aborted, ["/slow"], "the server saw the request go away")
  const refused = await toolkit.execute("webfetch", { url: "http://127.0.0.1:1/" })
  assert.equal(refused.isError, true)
  assert.match(refused.output, /^webfetch: /)
})
