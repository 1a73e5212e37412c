// The built-in file tools on Deno's own filesystem (fs: "deno"), in a temporary directory, and
// content parts there: `read` of a binary image, `image()` of bytes and of a path (Deno has
// Uint8Array.prototype.toBase64, so the platform encodes).
import { agents, createToolkit, image } from "toolnexus-wasm"

const equal = (actual: unknown, expected: unknown) => {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
  if (a !== e) throw new Error(`expected ${e}, got ${a}`)
}

Deno.test('fs: "deno": write, read, edit, grep, glob and apply_patch on the real filesystem', async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolnexus-deno-" })
  try {
    const toolkit = await createToolkit({ fs: "deno" })
    const names = toolkit.tools().map((t) => t.name)
    equal(names.includes("bash"), false)
    const file = `${dir}/sub/a.txt`
    equal(await toolkit.execute("write", { path: file, content: "one\ntwo\n" }), {
      output: `Wrote 8 bytes to ${file}`, isError: false, metadata: { bytes: 8 },
    })
    equal(await Deno.readTextFile(file), "one\ntwo\n")
    equal((await toolkit.execute("read", { path: file, offset: 2, limit: 1 })).output, "two")
    await toolkit.execute("edit", { path: file, oldString: "two", newString: "TWO" })
    equal(await Deno.readTextFile(file), "one\nTWO\n")
    equal((await toolkit.execute("grep", { pattern: "TWO", path: dir })).output, `${dir}/sub/a.txt:2:TWO`)
    equal((await toolkit.execute("glob", { pattern: "**/*.txt", path: dir })).output, "sub/a.txt")
    const missing = await toolkit.execute("read", { path: `${dir}/nope` })
    equal(missing, { output: `read: no such file or directory: ${dir}/nope`, isError: true })
    const patch = `*** Begin Patch\n*** Add File: ${dir}/b.txt\n+b\n*** Delete File: ${file}\n*** End Patch`
    equal((await toolkit.execute("apply_patch", { patchText: patch })).output, "Applied patch: 2 file operations")
    equal(await Deno.readTextFile(`${dir}/b.txt`), "b")
    let gone = false
    try { await Deno.stat(file) } catch { gone = true }
    equal(gone, true)
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test("content parts on Deno: read gives a binary image as a part; image() of bytes and of a path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolnexus-deno-parts-" })
  try {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0x80])
    const b64 = "iVBOR/8AgA=="
    await Deno.writeFile(`${dir}/shot.png`, png)
    const toolkit = await createToolkit({ fs: "deno" })
    equal(await toolkit.execute("read", { path: `${dir}/shot.png` }), {
      output: `${dir}/shot.png (image/png, 7 bytes)`, isError: false,
      parts: [{ type: "image", mimeType: "image/png", data: b64, name: "shot.png" }],
    })
    equal(image(png, { mimeType: "image/png" }), { type: "image", mimeType: "image/png", data: b64 })
    equal(image(`${dir}/shot.png`), { type: "image", mimeType: "image/png", data: b64, name: "shot.png" })
    let refused = ""
    try { image(png, { mimeType: "image/png", maxPartBytes: 3 }) } catch (e) { refused = (e as { code: string }).code }
    equal(refused, "invalid_part")
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

Deno.test("agents.memoryTool on Deno's own filesystem: the edit goes through a temporary file renamed over MEMORY.md", async () => {
  const dir = await Deno.makeTempDir({ prefix: "toolnexus-deno-home-" })
  try {
    await Deno.writeTextFile(`${dir}/MEMORY.md`, "- Likes hiking\n")
    const memory = agents.memoryTool(dir)
    equal(await memory.execute({ action: "add", text: "Speaks Tamil" }), { output: "ok (add → MEMORY.md); loads next session", isError: false })
    equal(await Deno.readTextFile(`${dir}/MEMORY.md`), "- Likes hiking\n- Speaks Tamil\n")
    const names: string[] = []
    for await (const entry of Deno.readDir(dir)) names.push(entry.name)
    equal(names, ["MEMORY.md"])
    equal((await agents.composeSoul(dir)).soul, "## MEMORY.md\n\n- Likes hiking\n- Speaks Tamil")
  } finally {
    await Deno.remove(dir, { recursive: true })
  }
})

