// Type tests of the facade (src/ts/): the glue's classes and helpers stay behind it.
import * as toolnexus from "toolnexus-wasm"
import * as core from "toolnexus-wasm/core"
import { createToolkit, createClient, Toolkit, Client, MemoryFileSystem, type Tool } from "toolnexus-wasm"

export async function facade(): Promise<void> {
  const toolkit = await createToolkit()
  // @ts-expect-error free() is the glue's; a toolkit is released with close() or `await using`
  toolkit.free()
  // @ts-expect-error registerAll is the glue's; register(...tools) is the API
  toolkit.registerAll([])
  const same: Toolkit = toolkit.register()
  const isToolkit: boolean = toolkit instanceof Toolkit
  const client = createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m" })
  // @ts-expect-error streamEvents is the glue's; stream() is the API
  client.streamEvents("hi", { toolkit })
  const isClient: boolean = client instanceof Client
  const files = new MemoryFileSystem({ "/a.md": "a" })
  const restored: MemoryFileSystem = MemoryFileSystem.fromJSON(files.toJSON())
  const tools: Tool[] = toolkit.tools()
  // @ts-expect-error the glue's helpers are not exported
  toolnexus.__setDefaultStore
  // @ts-expect-error the glue's stream class is not exported
  toolnexus.RunStream
  // @ts-expect-error the glue's init is not exported
  core.initSync
  // @ts-expect-error the lean build has no translate
  core.createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m" }).translate
  void [same, isToolkit, isClient, restored, tools]
}

// A tool's return: a misspelled ToolResult key fails to compile (a plain object is a ToolResult).
import { defineTool as define, type ToolReturn } from "toolnexus-wasm"
define({ name: "ok", run: () => ({ output: "x", isError: false }) })
define({ name: "json", run: () => [1, "two", { three: 3 }] })
define({ name: "text", run: () => JSON.stringify({ temperature: 21 }) })
// @ts-expect-error `ouput` is not a key of a ToolResult
define({ name: "typo", run: () => ({ ouput: "x", isError: false }) })
// @ts-expect-error a function is not JSON
const notJson: ToolReturn = () => "x"
void notJson

// Content parts: a Blob is read asynchronously, bytes and URLs at once; a prompt takes parts.
import { image, file, text, part, type ContentPart, type Prompt } from "toolnexus-wasm"
export async function parts(blob: Blob, bytes: Uint8Array): Promise<Prompt> {
  const later: Promise<ContentPart> = image(blob)
  const now: ContentPart = image(bytes, { mimeType: "image/png", maxPartBytes: 1_000_000 })
  // @ts-expect-error a Blob's part is a promise, not a part
  const wrong: ContentPart = file(blob)
  // @ts-expect-error a part's type is one of four
  part({ type: "video", mimeType: "video/mp4", url: "https://example.com/v.mp4" })
  void wrong
  return ["Compare", await later, now, text("and this"), image("https://example.com/a.png")]
}
