// The content-part constructors (SPEC §1B) on the built package: every source a caller holds
// (bytes, a File or Blob, a data: URL, an https: URL, a path in Node) becomes a part of bytes
// or a URL, and every bad source is a ToolnexusError naming what is wrong.
import { test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { audio, file, image, part, text, isToolnexusError } from "toolnexus-wasm"
import * as core from "toolnexus-wasm/core"

const PNG = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13])
const b64 = (bytes) => Buffer.from(bytes).toString("base64")
const refused = (code, message) => (e) => isToolnexusError(e) && e.code === code && (typeof message === "string" ? e.message === message : message.test(e.message))

test("bytes, with the MIME type given, become base64 data", () => {
  assert.deepEqual(image(PNG, { mimeType: "image/png" }), { type: "image", mimeType: "image/png", data: b64(PNG) })
  assert.deepEqual(image(PNG.buffer, { mimeType: "image/png", name: "a.png" }), { type: "image", mimeType: "image/png", data: b64(PNG), name: "a.png" })
  const view = new DataView(PNG.buffer, 2, 4)
  assert.equal(image(view, { mimeType: "image/png" }).data, b64(PNG.subarray(2, 6)))
  assert.throws(() => image(PNG), refused("invalid_part", "image: a mimeType is required when building a part from bytes"))
})

test("a File or Blob is read asynchronously; its type, else its name's extension, gives the MIME type", async () => {
  const fromFile = image(new File([PNG], "shot.PNG"))
  assert.ok(fromFile instanceof Promise)
  assert.deepEqual(await fromFile, { type: "image", mimeType: "image/png", data: b64(PNG), name: "shot.PNG" })
  assert.deepEqual(await file(new Blob([PNG], { type: "application/pdf" })), { type: "file", mimeType: "application/pdf", data: b64(PNG) })
  await assert.rejects(image(new File([PNG], "notes.txt")), refused("invalid_part", 'image: unknown file extension ".txt" — pass an explicit mimeType'))
  await assert.rejects(image(new Blob([PNG])), refused("invalid_part", "image: a mimeType is required when building a part from bytes"))
  await assert.rejects(image(new File([PNG], "a.png"), { maxPartBytes: 4 }), refused("invalid_part", "image: content part is 12 decoded bytes, over the maxPartBytes limit of 4"))
})

test("data: and https: URLs; other schemes refused", () => {
  assert.deepEqual(image(`data:image/png;base64,${b64(PNG)}`), { type: "image", mimeType: "image/png", data: b64(PNG) })
  assert.deepEqual(audio("https://example.com/a/clip.mp3?sig=1"), { type: "audio", mimeType: "audio/mpeg", url: "https://example.com/a/clip.mp3?sig=1" })
  assert.throws(() => image("javascript:alert(1)"), refused("invalid_part", "image: a image part's url must be an http: or https: URL, got a javascript: URL"))
  assert.throws(() => image("file:///etc/passwd"), refused("invalid_part", /got a file: URL$/))
  assert.throws(() => image("data:image/png;base64,@@@@"), refused("invalid_part", "image: a image part's data is not standard base64"))
  assert.throws(() => file("https://example.com/report"), refused("invalid_part", /a mimeType is required for a URL/))
})

test("in Node a path is read now, and the part keeps no path", () => {
  const dir = mkdtempSync(join(tmpdir(), "parts-"))
  writeFileSync(join(dir, "diagram.webp"), PNG)
  assert.deepEqual(image(join(dir, "diagram.webp")), { type: "image", mimeType: "image/webp", data: b64(PNG), name: "diagram.webp" })
  assert.deepEqual(image(join(dir, "diagram.webp"), { name: "d", mimeType: "image/png" }), { type: "image", mimeType: "image/png", data: b64(PNG), name: "d" })
  assert.throws(() => image(join(dir, "missing.png")), refused("invalid_part", /^image: cannot read ".*missing\.png": ENOENT/))
})

test("a source of the wrong kind, or a bad limit, is refused", async () => {
  for (const bad of [42, null, undefined, {}, [], ""]) {
    assert.throws(() => image(bad), refused("invalid_part", /^image: expected a Blob or File, bytes, a data: or https: URL, or \(Node, Deno\) a path, got /), String(bad))
  }
  assert.throws(() => image(PNG, { mimeType: "image/png", maxPartBytes: -1 }), refused("invalid_options", "image: maxPartBytes must be a non-negative number, got -1"))
})

test("part() checks fields; text() makes a text part", () => {
  assert.deepEqual(part({ type: "image", mimeType: "image/png", url: "https://example.com/a.png" }), { type: "image", mimeType: "image/png", url: "https://example.com/a.png" })
  assert.deepEqual(part({ type: "text", text: "hi" }), text("hi"))
  const cases = [
    [{ type: "image", mimeType: "image/png", data: "AAAA", url: "https://example.com/a.png" }, "part: a image part carries both data and url — exactly one is allowed"],
    [{ type: "file", mimeType: "application/pdf" }, "part: a file part carries neither data nor url — exactly one is required"],
    [{ type: "image", data: "AAAA" }, "part: a image part needs a mimeType"],
    [{ type: "video", mimeType: "video/mp4", data: "AAAA" }, 'part: unknown content part type "video"'],
    [{ mimeType: "image/png", data: "AAAA" }, "part: missing field `type`"],
    ["x", "part: expected {type, text?, mimeType?, data?, url?, name?}, got string"],
  ]
  for (const [fields, message] of cases) assert.throws(() => part(fields), refused("invalid_part", message))
  assert.throws(() => text(5), refused("invalid_part", "text: expected a string, got a number"))
})

test("the lean build has no content parts, and says so where they come in", async () => {
  assert.equal(core.image, undefined)
  const toolkit = await core.createToolkit({
    extraTools: [core.defineTool({ name: "camera", run: () => ({ output: "took one", parts: [image(PNG, { mimeType: "image/png" })] }) })],
  })
  const client = core.createInProcessClient({ model: "m", generate: () => ({ content: "x" }) })
  await assert.rejects(client.run(["hi"], { toolkit }), refused("unsupported", 'run: a prompt of content parts needs the full build: import from "toolnexus-wasm", not "toolnexus-wasm/core"'))
  assert.deepEqual(await toolkit.execute("camera", {}), {
    output: 'Tool "camera" returned content parts, which need the full build (toolnexus-wasm, not toolnexus-wasm/core)',
    isError: true,
  })
})

test("ten megabytes of bytes become one base64 string", () => {
  const big = new Uint8Array(10 * 1024 * 1024).map((_, i) => i % 251)
  const p = image(big, { mimeType: "image/png" })
  assert.equal(p.data.length, Math.ceil(big.length / 3) * 4)
  assert.equal(p.data, b64(big))
})
