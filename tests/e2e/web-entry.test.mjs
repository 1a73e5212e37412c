// toolnexus-wasm/web (pkg/web.js) in Chromium: a page that serves the module from a URL of its
// choosing. Nothing is instantiated on import; a call before `initializeWasm` is a clear
// `unsupported` error; `initializeWasm(url)` fetches the module from that URL, after which the
// whole API works (a tool, a toolkit, an in-process run) and the skill texts are set.
import assert from "node:assert/strict"
import { describe, it } from "node:test"
import { onDemoPage } from "./browser.mjs"

describe("toolnexus-wasm/web: the module from a URL the page chooses", () => {
  const browser = onDemoPage("web-entry")

  it("refuses before initializeWasm, then instantiates from the given URL", async () => {
    const out = await browser.page.evaluate(async () => {
      const fetched = []
      const realFetch = globalThis.fetch
      globalThis.fetch = (input, init) => (fetched.push(String(input)), realFetch(input, init))
      const m = await import("/pkg/web.js")
      let early
      try {
        m.defineTool({ name: "x", run: () => "x" })
      } catch (e) {
        early = { name: e.name, code: e.code, message: e.message, branded: m.isToolnexusError(e) }
      }
      const preambleBefore = m.SKILLS_PROMPT_PREAMBLE
      await m.initializeWasm(new URL("/pkg/web/toolnexus_bg.wasm", location.href))
      await m.initializeWasm("/never-fetched.wasm")
      globalThis.fetch = realFetch
      const echo = m.defineTool({ name: "echo", inputSchema: { type: "object" }, run: (args) => `echo ${args.x}` })
      const toolkit = await m.createToolkit({ builtins: false, extraTools: [echo] })
      let turn = 0
      const client = m.createInProcessClient({
        model: "scripted",
        generate: ({ messages }) =>
          turn++ === 0 ? { toolCalls: [{ name: "echo", arguments: { x: 1 } }] } : { content: messages.at(-1).content },
      })
      const run = await client.run("go", { toolkit })
      return {
        early,
        preambleBefore,
        preambleAfter: m.SKILLS_PROMPT_PREAMBLE.length > 0,
        fetched: fetched.map((u) => new URL(u).pathname),
        text: run.text,
      }
    })
    assert.deepEqual(out, {
      early: {
        name: "ToolnexusError",
        code: "unsupported",
        message: "defineTool: the module is not instantiated yet: `await initializeWasm(url)` first (toolnexus-wasm/web)",
        branded: true,
      },
      preambleBefore: "",
      preambleAfter: true,
      fetched: ["/pkg/web/toolnexus_bg.wasm"],
      text: "echo 1",
    })
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
