// Imports the package like any other; Vite needs no plugin for the .wasm file. `?core` loads the
// lean build (toolnexus-wasm/core) instead, and also runs the agent loop over an in-page fetch:
// each build is its own chunk with its own .wasm asset, and a page fetches only the one it uses.
const lean = new URLSearchParams(location.search).has("core")
const { createClient, createToolkit, defineTool } = lean ? await import("toolnexus-wasm/core") : await import("toolnexus-wasm")

const greet = defineTool({
  name: "greet",
  description: "Greets someone",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  run: async ({ name }) => `Hello, ${name}!`,
})

/** A Chat Completions endpoint in the page: a call to `greet`, then an answer quoting its result. */
function scriptedFetch() {
  let turn = 0
  return async (_url, init) => {
    const body = JSON.parse(init.body)
    const message = turn++ === 0
      ? { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "greet", arguments: '{"name":"loop"}' } }] }
      : { role: "assistant", content: `model saw: ${body.messages.at(-1).content}` }
    return new Response(JSON.stringify({ choices: [{ message }] }), { headers: { "content-type": "application/json" } })
  }
}

const out = document.querySelector("#result")
try {
  const toolkit = (await createToolkit({ builtins: false })).register(greet)
  const result = await toolkit.execute("greet", { name: "Vite" })
  const [schema] = toolkit.toOpenAI()
  let text = `${schema.function.name}: ${result.output} (isError: ${result.isError})`
  if (lean) {
    const client = createClient({ baseUrl: "http://model.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: scriptedFetch() })
    text += `; core run: ${(await client.run("Greet the loop", { toolkit })).text}`
  }
  out.textContent = text
  out.dataset.state = "done"
} catch (error) {
  out.textContent = `failed: ${error.message}`
  out.dataset.state = "failed"
  console.error(error)
}
