// Retries against a real local server (SPEC §8 Resilience): 429 with each Retry-After form then a
// 200 (the gap between the two requests shows which wait was used), 503 three times with retries
// 2, onError "fail" / "retry" / a throw, network errors, and a Retry-After past timeoutMs that
// fails at once with code "timeout". Small retryBaseMs keeps the backoff short.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { createClient, createToolkit } from "../../pkg/node.mjs"
import { startSseStub, sse, plain, streamOf } from "./support/sse-stub.mjs"
import { openai } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

const toolkit = await createToolkit({})
const client = (extra = {}) => createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "m", ...extra })
const tooMany = (retryAfter) => plain(429, { error: { message: "slow down" } }, retryAfter === undefined ? {} : { "retry-after": retryAfter })
const gaps = () => stub.requests.slice(1).map((r, i) => r.at - stub.requests[i].at)

test("Retry-After: 0 retries at once, not after the backoff", async () => {
  stub.script(tooMany("0"), openai.text("ok"))
  const r = await client({ retryBaseMs: 600 }).run("hi", { toolkit })
  assert.equal(r.text, "ok")
  assert.equal(stub.requests.length, 2)
  assert.ok(gaps()[0] < 400, `waited ${gaps()[0]} ms; the backoff would be at least 600`)
})

test("Retry-After: 1 waits one whole second", async () => {
  stub.script(tooMany("1"), openai.text("ok"))
  assert.equal((await client({ retryBaseMs: 10 }).run("hi", { toolkit })).text, "ok")
  assert.equal(stub.requests.length, 2)
  assert.ok(gaps()[0] >= 950 && gaps()[0] < 2500, `waited ${gaps()[0]} ms`)
})

for (const [form, value] of [["fractional", "1.5"], ["an HTTP date", new Date(Date.now() + 5000).toUTCString()], ["negative", "-1"], ["empty", ""]]) {
  test(`Retry-After as ${form} falls back to the backoff`, async () => {
    stub.script(tooMany(value), openai.text("ok"))
    assert.equal((await client({ retryBaseMs: 20 }).run("hi", { toolkit })).text, "ok")
    assert.equal(stub.requests.length, 2)
    assert.ok(gaps()[0] >= 15 && gaps()[0] < 800, `waited ${gaps()[0]} ms; the backoff is 20..120 ms`)
  })
}

test("a streamed request is retried the same way", async () => {
  stub.script(tooMany("1.5"), sse(streamOf("openai", ["fine"]), { cut: "bytes" }))
  const events = []
  for await (const e of client({ retryBaseMs: 20 }).stream("hi", { toolkit })) events.push(e)
  assert.equal(events.at(-1).result.text, "fine")
  assert.equal(stub.requests.length, 2)
  assert.equal(stub.requests[1].body.stream, true)
})

test("503 three times with retries 2 rejects http_status after 3 requests, backing off", async () => {
  stub.script(plain(503, "busy"), plain(503, "busy"), plain(503, "busy"), openai.text("never"))
  const error = assertCode(await rejection(client({ retries: 2, retryBaseMs: 60 }).run("hi", { toolkit })), "http_status")
  assert.match(error.message, /503 from \/v1\/chat\/completions: busy/)
  assert.equal(stub.requests.length, 3)
  const [first, second] = gaps()
  assert.ok(first >= 55 && first < 600, `first backoff ${first} ms (60 + up to 100)`)
  assert.ok(second >= 115 && second < 700, `second backoff ${second} ms (120 + up to 100)`)
  assert.equal(stub.remaining, 1)
})

test("retries default to 2; retries: 0 sends once", async () => {
  stub.script(plain(500, "x"), plain(500, "x"), plain(500, "x"), plain(500, "x"))
  await rejection(client({ retryBaseMs: 1 }).run("hi", { toolkit }))
  assert.equal(stub.requests.length, 3)
  stub.script(plain(502, "x"), openai.text("no"))
  await rejection(client({ retries: 0 }).run("hi", { toolkit }))
  assert.equal(stub.requests.length, 1)
})

test('onError "fail" stops at once and sees {status, attempt, retryable}', async () => {
  const infos = []
  stub.script(plain(503, "busy"), openai.text("never"))
  const onError = (info) => (infos.push(info), "fail")
  assertCode(await rejection(client({ onError, retryBaseMs: 1 }).run("hi", { toolkit })), "http_status")
  assert.equal(stub.requests.length, 1)
  assert.deepEqual(infos, [{ attempt: 0, retryable: true, status: 503 }])
})

test('onError "retry" makes a 400 retryable, still bounded by retries', async () => {
  const infos = []
  stub.script(plain(400, "bad"), plain(400, "bad"), plain(400, "bad"), openai.text("never"))
  const onError = (info) => (infos.push(info), "retry")
  await rejection(client({ onError, retries: 1, retryBaseMs: 1 }).run("hi", { toolkit }))
  assert.equal(stub.requests.length, 2)
  assert.deepEqual(infos.map((i) => [i.attempt, i.retryable, i.status]), [[0, false, 400], [1, false, 400]])
})

test("an onError that throws, or answers nonsense, never loops", async () => {
  stub.script(plain(503, "busy"), openai.text("never"))
  await rejection(client({ onError: () => { throw new Error("classifier bug") }, retryBaseMs: 1 }).run("hi", { toolkit }))
  assert.equal(stub.requests.length, 1, "a throw counts as fail")
  stub.script(plain(503, "busy"), openai.text("ok"))
  assert.equal((await client({ onError: () => "maybe", retryBaseMs: 1 }).run("hi", { toolkit })).text, "ok", "unknown answer = default")
})

test("network errors are retried and onError sees the error", async () => {
  const server = http.createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = server.address().port
  await new Promise((resolve) => server.close(resolve))
  const infos = []
  const c = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, style: "openai", model: "m", retryBaseMs: 5, onError: (i) => (infos.push(i), undefined) })
  const error = assertCode(await rejection(c.run("hi", { toolkit })), "network")
  assert.match(error.message, /\/v1\/chat\/completions/)
  assert.equal(infos.length, 3)
  for (const [i, info] of infos.entries()) {
    assert.equal(info.attempt, i)
    assert.equal(info.retryable, true)
    assert.equal(info.status, undefined)
    assert.ok(info.error instanceof Error && /ECONNREFUSED|fetch failed/.test(info.error.message), String(info.error))
  }
})

test("Retry-After: 30 with timeoutMs: 1000 rejects at once with code timeout", async () => {
  stub.script(tooMany("30"), openai.text("late"))
  const started = Date.now()
  const error = assertCode(await rejection(client({ timeoutMs: 1000 }).run("hi", { toolkit })), "timeout")
  assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`)
  assert.match(error.message, /429 from \/v1\/chat\/completions/)
  assert.match(error.message, /a retry would wait 30000 ms, past the run's deadline \(timeoutMs\)/)
  assert.equal(stub.requests.length, 1)
})
