// client.stream() when things go wrong, against a real local SSE server: breaking out of the
// `for await` early closes the server's connection and ends the events; a stall mid-stream with
// timeoutMs, or an AbortController fired mid-stream, rejects with an AbortError; a stream that
// ends before [DONE] / message_stop is bad_response (never a silent done); an error event carries
// the provider's message; a connection closed mid-stream is a network error.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit } from "../../pkg/node.mjs"
import { startSseStub, sse, streamOf, errorEvent, baseUrlOf } from "./support/sse-stub.mjs"
import { assertCode, clearKeyEnv, sleep, timeout } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

const toolkit = await createToolkit({})
const STYLES = ["openai", "anthropic"]
const client = (style, extra = {}) => createClient({ baseUrl: baseUrlOf(stub, style), style, model: "m", retries: 0, ...extra })
const PARTS = Array.from({ length: 60 }, (_, i) => `w${i} `)

/** The stream of `style` cut just before the text part `part` (everything before it is sent). */
function upTo(style, part) {
  const full = streamOf(style, PARTS)
  const at = full.indexOf(JSON.stringify(part))
  return full.slice(0, full.lastIndexOf("\n\n", at) + 2)
}

/** Pulls events until the stream ends; returns them and the error it rejected with, if any. */
async function drain(iterable, onEvent = () => {}) {
  const events = []
  try {
    for await (const event of iterable) {
      events.push(event)
      onEvent(event, events)
    }
    return { events }
  } catch (error) {
    return { events, error }
  }
}

/** Resolves to whether the server saw request `n` closed before its response was complete. */
const closedEarly = (n, ms = 3000) => Promise.race([stub.requests[n].closed, timeout(ms, `request ${n} to close`)])

for (const style of STYLES) {
  test(`${style}: breaking out early closes the connection and no further events arrive`, async () => {
    // A slow stream: one part every 40 ms after the first few bytes.
    stub.script(sse(streamOf(style, PARTS), { cut: { random: 11, max: 40 }, gapMs: 40 }))
    const started = Date.now()
    const iterable = client(style).stream("count", { toolkit })
    const texts = []
    for await (const event of iterable) {
      if (event.type === "text") texts.push(event.delta)
      if (texts.length === 2) break
    }
    assert.deepEqual(texts, ["w0 ", "w1 "])
    assert.equal(await closedEarly(0), true, "the server saw the request aborted")
    assert.ok(Date.now() - started < 2000, "well before the stream's natural end")
    assert.deepEqual(await iterable.next(), { value: undefined, done: true })
    await sleep(100)
    assert.deepEqual(await iterable.next(), { value: undefined, done: true })
    assert.equal(stub.requests.length, 1)
  })

  test(`${style}: a stall mid-stream with timeoutMs rejects with AbortError`, async () => {
    // Small chunks (byte-by-byte HTTP chunks cost ~0.5 ms each on loopback, raw fetch included).
    stub.script(sse(upTo(style, "w2 "), { cut: [5], then: "stall" }))
    const started = Date.now()
    const { events, error } = await drain(client(style, { timeoutMs: 800 }).stream("slow", { toolkit }))
    assertCode(error, "aborted")
    assert.equal(error.name, "AbortError")
    assert.match(error.message, /timed out after 800 ms/)
    const elapsed = Date.now() - started
    assert.ok(elapsed >= 750 && elapsed < 3000, `${elapsed} ms`)
    assert.deepEqual(events.map((e) => e.delta), ["w0 ", "w1 "])
    assert.equal(await closedEarly(0), true)
  })

  test(`${style}: an AbortController fired mid-stream rejects with AbortError`, async () => {
    stub.script(sse(streamOf(style, PARTS), { cut: [7], gapMs: 30 }))
    const controller = new AbortController()
    const { events, error } = await drain(client(style).stream("go", { toolkit, signal: controller.signal }), (e) => {
      if (e.type === "text") controller.abort()
    })
    assertCode(error, "aborted")
    assert.equal(error.name, "AbortError")
    assert.equal(events.filter((e) => e.type === "text").length, 1)
    assert.ok(events.every((e) => e.type !== "done"))
    assert.equal(await closedEarly(0), true)
  })

  test(`${style}: a stream that ends before its terminal event is bad_response, never a done`, async () => {
    const cut = style === "openai" ? { done: false, finish: false } : { stop: false }
    stub.script(sse(streamOf(style, ["par", "tial"], [], [1, 1], cut), { cut: "bytes" }))
    const { events, error } = await drain(client(style).stream("x", { toolkit }))
    assertCode(error, "bad_response")
    assert.match(error.message, style === "openai" ? /ended before its \[DONE\] line/ : /ended before its message_stop event/)
    assert.deepEqual(events.map((e) => e.type), ["text", "text"])
  })

  test(`${style}: an error event mid-stream rejects with the provider's message`, async () => {
    const key = "sk-stream-secret-4242"
    const body = upTo(style, "w3 ") + errorEvent(style, `The model is overloaded, try later (key ${key})`) + streamOf(style, ["after"])
    stub.script(sse(body, { cut: { random: 4 } }))
    const { events, error } = await drain(client(style, { apiKey: key }).stream("x", { toolkit }))
    assertCode(error, "bad_response")
    assert.match(error.message, /The model is overloaded, try later \(key \[redacted\]\)/)
    assert.ok(!error.message.includes(key), error.message)
    assert.deepEqual(events.map((e) => e.delta), ["w0 ", "w1 ", "w2 "])
  })

  test(`${style}: a connection closed mid-stream is a network error`, async () => {
    stub.script(sse(upTo(style, "w1 "), { cut: [5], then: "drop" }))
    const { events, error } = await drain(client(style).stream("x", { toolkit }))
    assertCode(error, "network")
    assert.match(error.message, style === "openai" ? /\/v1\/chat\/completions/ : /\/v1\/messages/)
    assert.match(error.message, /the stream broke/)
    assert.deepEqual(events.map((e) => e.delta), ["w0 "])
    assert.equal(stub.requests.length, 1, "a broken stream is not retried")
  })
}

test("a signal aborted before the stream starts sends nothing", async () => {
  stub.script(sse(streamOf("openai", ["x"])))
  const { error } = await drain(client("openai").stream("x", { toolkit, signal: AbortSignal.abort() }))
  assertCode(error, "aborted")
  assert.equal(error.name, "AbortError")
  assert.equal(stub.requests.length, 0)
})
