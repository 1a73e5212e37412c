// Imports the package like any other; Vite needs no plugin for the .wasm file.
import { createToolkit, defineTool } from "toolnexus-wasm"

const greet = defineTool({
  name: "greet",
  description: "Greets someone",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  run: async ({ name }) => `Hello, ${name}!`,
})

const out = document.querySelector("#result")
try {
  const toolkit = (await createToolkit({ builtins: false })).register(greet)
  const result = await toolkit.execute("greet", { name: "Vite" })
  const [schema] = toolkit.toOpenAI()
  out.textContent = `${schema.function.name}: ${result.output} (isError: ${result.isError})`
  out.dataset.state = "done"
} catch (error) {
  out.textContent = `failed: ${error.message}`
  out.dataset.state = "failed"
  console.error(error)
}
