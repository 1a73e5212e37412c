// client.stream() over a `fetch` whose response body reader misbehaves: `read` that throws,
// rejects, gives no object, a throwing getter, a reader without `read`, chunks that are not
// Uint8Arrays, a read that never settles. Each run ends, with the whole answer or a clear
// error, never a hang; and an abort while a read is pending stops the run at once.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit } from "../../pkg/node.mjs"
import { openaiStream } from "./support/sse-stub.mjs"
import { assertCode, clearKeyEnv, timeout } from "./support/helpers.mjs"

clearKeyEnv()
const toolkit = await createToolkit({ builtins: false })
const PARTS = ["Hel", "lo, ", "wor", "ld"]
const encoded = new TextEncoder().encode(openaiStream(PARTS))
/** Where the event carrying the first text part ends (the text is ASCII: bytes are chars). */
const firstText = openaiStream(PARTS).indexOf("\n\n", openaiStream(PARTS).indexOf('"Hel"')) + 2

/** A fetch answering 200 with a body whose `getReader()` gives `makeReader()`. */
const fetchWith = (makeReader) => async () => ({
  ok: true,
  status: 200,
  headers: new Headers({ "content-type": "text/event-stream" }),
  body: { getReader: makeReader },
  text: async () => {
    throw new Error("text() must not be used when a reader is there")
  },
})

/** A reader giving `chunks` (each passed through `wrap`), then done. */
function readerOf(chunks, wrap = (c) => c) {
  let i = 0
  return { read: async () => (i < chunks.length ? { done: false, value: wrap(chunks[i++]) } : { done: true, value: undefined }), cancel: async () => {} }
}

/** Pulls events until the stream ends (or `ms` pass: a hang fails the test). */
async function drain(iterable, onEvent = () => {}) {
  const events = []
  const pulled = (async () => {
    for await (const event of iterable) {
      events.push(event)
      onEvent(event)
    }
  })()
  try {
    await Promise.race([pulled, timeout(5000, "the stream hung")])
    return { events }
  } catch (error) {
    return { events, error }
  }
}

const stream = (makeReader, ctx = {}) =>
  createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", apiKey: "k", retries: 0, fetch: fetchWith(makeReader) }).stream("go", { toolkit, ...ctx })

test("chunks one byte at a time and in views of larger buffers give the whole answer", async () => {
  const bytes = [...encoded].map((b) => new Uint8Array([b]))
  const views = [0, 7, 50, 51, encoded.length].slice(1).map((end, i, ends) => {
    const start = i === 0 ? 0 : ends[i - 1]
    const padded = new Uint8Array(end - start + 20)
    padded.set(encoded.subarray(start, end), 10)
    return padded.subarray(10, 10 + end - start)
  })
  for (const chunks of [bytes, views, [encoded]]) {
    const { events, error } = await drain(stream(() => readerOf(chunks)))
    assert.equal(error, undefined)
    assert.deepEqual(events.filter((e) => e.type === "text").map((e) => e.delta), PARTS)
    assert.equal(events.at(-1).result.text, PARTS.join(""))
  }
})

test("ArrayBuffer and plain-array chunks are read as their bytes", async () => {
  for (const wrap of [(c) => c.slice().buffer, (c) => [...c]]) {
    const { events, error } = await drain(stream(() => readerOf([encoded.subarray(0, 40), encoded.subarray(40)], wrap)))
    assert.equal(error, undefined)
    assert.equal(events.at(-1).result.text, PARTS.join(""))
  }
})

const broken = {
  "read throws": () => ({ read: () => { throw new Error("read exploded") } }),
  "read rejects": () => ({ read: () => Promise.reject(new Error("read rejected")) }),
  "read rejects with a non-Error": () => ({ read: () => Promise.reject("just a string") }),
  "a throwing done getter": () => ({ read: async () => ({ get done() { throw new Error("done getter threw") }, value: encoded }) }),
  "a throwing value getter": () => ({ read: async () => ({ done: false, get value() { throw new Error("value getter threw") } }) }),
}
for (const [name, makeReader] of Object.entries(broken)) {
  test(`${name}: a network error naming the stream, never a hang or a done`, async () => {
    const { events, error } = await drain(stream(makeReader))
    assertCode(error, "network")
    assert.match(error.message, /the stream broke/)
    assert.ok(events.every((e) => e.type !== "done"))
  })
}

test("a reader without read is a network error", async () => {
  const { error } = await drain(stream(() => ({ cancel: async () => {} })))
  assertCode(error, "network")
  assert.match(error.message, /the response body has no reader/)
})

test("a read that gives no object is a network error, not a reader read forever", async () => {
  for (const step of [42, null, "text", undefined]) {
    let first = true
    const reader = () => ({
      read: async () => {
        if (first) return (first = false), { done: false, value: encoded.subarray(0, 60) }
        return step
      },
      cancel: async () => {},
    })
    const { events, error } = await drain(stream(reader))
    assertCode(error, "network")
    assert.match(error.message, /the response body's reader gave something other than \{done, value\}/)
    assert.ok(events.every((e) => e.type !== "done"))
  }
})

test("an abort while a read is pending ends the run at once and cancels the reader", async () => {
  let cancelled = false
  let reads = 0
  const reader = () => ({
    read: () => (++reads === 1 ? Promise.resolve({ done: false, value: encoded.subarray(0, firstText) }) : new Promise(() => {})),
    cancel: async () => {
      cancelled = true
    },
  })
  const controller = new AbortController()
  const { events, error } = await drain(stream(reader, { signal: controller.signal }), (e) => {
    if (e.type === "text") setTimeout(() => controller.abort(), 20)
  })
  assertCode(error, "aborted")
  assert.equal(error.name, "AbortError")
  assert.deepEqual(events.map((e) => e.delta), ["Hel"])
  assert.equal(reads, 2)
  assert.equal(cancelled, true)
})

test("a stream with many reads and an unfired signal still ends with the whole answer", async () => {
  const controller = new AbortController()
  const bytes = [...encoded].map((b) => new Uint8Array([b]))
  for (let round = 0; round < 3; round++) {
    const { events, error } = await drain(stream(() => readerOf(bytes), { signal: controller.signal }))
    assert.equal(error, undefined)
    assert.equal(events.at(-1).result.text, PARTS.join(""))
  }
})
