// Content parts from the `read` built-in (a media file comes back as a part: Node's real fs, a
// host ToolnexusFs with readBytes, one without), through a streamed run against a real local
// SSE server in both styles: the `tool_result` event carries the parts, the next request
// carries the image, and the `llm` metric event names the parts the request held (never their
// bytes). Then a conversation store and the hooks, which see and keep parts unchanged.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { createClient, createToolkit, defineTool, image, MemoryFileSystem } from "../../pkg/node.mjs"
import { startSseStub, sse, streamOf, baseUrlOf } from "./support/sse-stub.mjs"
import { openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
const tmp = mkdtempSync(path.join(os.tmpdir(), "toolnexus-js-parts-read-"))
after(() => (rmSync(tmp, { recursive: true, force: true }), stub.close()))

// Not UTF-8 (0x89, 0xff, 0x00): read as text, these bytes would be mangled.
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0x80])
const B64 = Buffer.from(PNG).toString("base64")
const file = path.join(tmp, "Screen.PNG")
writeFileSync(file, PNG)
const expectedPart = { type: "image", mimeType: "image/png", data: B64, name: "Screen.PNG" }

test("read gives a media file as a content part on Node's filesystem; text files stay text", async () => {
  const toolkit = await createToolkit({ fs: "node" })
  const r = await toolkit.execute("read", { path: file })
  assert.deepEqual(JSON.parse(JSON.stringify(r)), { output: `${file} (image/png, 11 bytes)`, isError: false, parts: [expectedPart] })
  writeFileSync(path.join(tmp, "notes.txt"), "plain")
  assert.deepEqual(await toolkit.execute("read", { path: path.join(tmp, "notes.txt") }), { output: "plain", isError: false })
  const missing = await toolkit.execute("read", { path: path.join(tmp, "gone.pdf") })
  assert.deepEqual(missing, { output: `read: no such file or directory: ${tmp}/gone.pdf`, isError: true })
})

test("read on a host ToolnexusFs: readBytes is used for media files; without it, a clear error result", async () => {
  const calls = []
  const host = {
    cwd: "/w",
    readFile: (p) => (calls.push(["readFile", p]), "text"),
    readBytes: async (p) => (calls.push(["readBytes", p]), PNG.buffer.slice(0)),
    writeFile() {},
    remove() {},
    readDir: () => [],
    stat: () => ({ kind: "file" }),
  }
  const toolkit = await createToolkit({ fs: host })
  const r = await toolkit.execute("read", { path: "shots/Screen.PNG" })
  assert.deepEqual(r.parts, [expectedPart])
  assert.equal(r.output, "shots/Screen.PNG (image/png, 11 bytes)")
  assert.deepEqual(calls, [["readBytes", "/w/shots/Screen.PNG"]], "an absolute path, and no text read")

  const { readBytes, ...textOnly } = host
  void readBytes
  const refused = await (await createToolkit({ fs: textOnly })).execute("read", { path: "a.png" })
  assert.deepEqual(refused, { output: "read: cannot read /w/a.png as bytes: the filesystem has no readBytes() function", isError: true })
  const wrong = await (await createToolkit({ fs: { ...host, readBytes: () => "not bytes" } })).execute("read", { path: "a.png" })
  assert.deepEqual(wrong, { output: "read: readBytes(/w/a.png) did not give a Uint8Array or an ArrayBuffer", isError: true })
  const thrown = await (await createToolkit({ fs: { ...host, readBytes: () => { throw Object.assign(new Error("gone"), { code: "ENOENT" }) } } })).execute("read", { path: "a.png" })
  assert.deepEqual(thrown, { output: "read: no such file or directory: /w/a.png", isError: true })
})

test("read on a MemoryFileSystem gives the stored text's bytes as the part", async () => {
  const fs = new MemoryFileSystem({ "/doc.pdf": "%PDF-1.7" })
  const r = await (await createToolkit({ fs })).execute("read", { path: "/doc.pdf" })
  assert.deepEqual(r.parts, [{ type: "file", mimeType: "application/pdf", data: Buffer.from("%PDF-1.7").toString("base64"), name: "doc.pdf" }])
})

for (const style of ["openai", "anthropic"]) {
  test(`${style}, streamed: read's image reaches the model, the tool_result event carries it, the llm event names it`, async () => {
    const toolkit = await createToolkit({ fs: "node" })
    const metrics = []
    const client = createClient({ baseUrl: baseUrlOf(stub, style), style, model: "m", apiKey: "k", onMetric: (e) => metrics.push(e) })
    stub.script(
      sse(streamOf(style, [], [{ id: "c1", name: "read", args: { path: file } }], [5, 2])),
      sse(streamOf(style, ["A PNG."], [], [9, 3])),
    )
    const events = []
    for await (const event of client.stream("What is in Screen.PNG?", { toolkit })) events.push(event)
    const result = events.find((e) => e.type === "tool_result")
    assert.deepEqual(JSON.parse(JSON.stringify(result)), {
      type: "tool_result", id: "c1", name: "read", output: `${file} (image/png, 11 bytes)`, isError: false, parts: [expectedPart],
    })
    assert.equal(events.at(-1).result.text, "A PNG.")

    const second = stub.requests.at(-1).body
    const imageBlock = style === "openai"
      ? { type: "image_url", image_url: { url: `data:image/png;base64,${B64}` } }
      : { type: "image", source: { type: "base64", media_type: "image/png", data: B64 } }
    assert.ok(JSON.stringify(second.messages).includes(JSON.stringify(imageBlock)), "the image block is in the second request")

    const llm = metrics.filter((e) => e.event === "llm")
    assert.equal(llm.length, 2)
    assert.equal(llm[0].parts, undefined, "the first request carried no part: no parts key")
    assert.deepEqual(llm[1].parts, [{ type: "image", mimeType: "image/png", bytes: 11 }])
    assert.ok(!JSON.stringify(metrics).includes(B64), "a metric never carries a part's bytes")
    // The transcript keeps the §1B part for the next run, whatever the style.
    assert.ok(JSON.stringify(events.at(-1).result.messages).includes(JSON.stringify(expectedPart)))
  })
}

test("a conversation store keeps an attached image and a tool's image; hooks see them unchanged", async () => {
  const shot = image(PNG, { mimeType: "image/png", name: "shot.png" })
  const camera = defineTool({ name: "camera", run: () => ({ output: "took one", parts: [shot] }) })
  const toolkit = await createToolkit({ builtins: false, extraTools: [camera] })
  const seen = { beforeLLM: [], afterTool: [] }
  const hooks = {
    beforeLLM: ({ messages }) => { seen.beforeLLM.push(structuredClone(messages)) },
    afterTool: ({ result }) => { seen.afterTool.push(structuredClone(result)) },
  }
  const client = createClient({ baseUrl: baseUrlOf(stub, "openai"), style: "openai", model: "m", apiKey: "k", hooks })
  stub.script(
    openai.toolCalls([{ id: "c1", name: "camera" }]),
    openai.text("Both are PNGs."),
    openai.text("Still two PNGs."),
  )
  await client.ask(["Compare with a new shot:", shot], { toolkit, id: "album" })
  assert.deepEqual(JSON.parse(JSON.stringify(seen.afterTool)), [{ output: "took one", isError: false, parts: [shot] }])
  assert.deepEqual(seen.beforeLLM[0].at(-1), { role: "user", content: [{ type: "text", text: "Compare with a new shot:" }, shot] })

  const stored = await client.conversationStore().get("album")
  assert.deepEqual(JSON.parse(JSON.stringify(stored)), stored, "plain JSON")
  assert.deepEqual(stored.find((m) => m.role === "tool"), { role: "tool", tool_call_id: "c1", content: "took one", parts: [shot] })

  await client.ask("How many?", { toolkit, id: "album" })
  const third = stub.requests.at(-1).body.messages
  const dataUrl = `data:image/png;base64,${B64}`
  assert.deepEqual(third[0].content[1], { type: "image_url", image_url: { url: dataUrl } }, "the attached image is sent again")
  assert.ok(third.some((m) => m.role === "user" && JSON.stringify(m.content).includes("Output of tool camera (c1):")), "the tool's image too")
})
