// Type tests of the error surface: `isToolnexusError` narrows, `code` is the `ErrorCode` union.
import { createClient, relayTool, ToolnexusError, isToolnexusError, type ErrorCode } from "toolnexus-wasm"
import * as lean from "toolnexus-wasm/core"

async function handle(run: () => Promise<unknown>): Promise<string> {
  try {
    await run()
    return "ok"
  } catch (e) {
    // @ts-expect-error an unknown catch value has no code before it is narrowed
    e.code
    if (isToolnexusError(e)) {
      const code: ErrorCode = e.code
      const status: number | undefined = e.status
      const retryable: boolean = e.retryable
      // @ts-expect-error codes are a closed union
      const wrong: typeof e.code = "no_such_code"
      return `${code} ${status ?? ""} ${retryable} ${wrong}`
    }
    if (e instanceof ToolnexusError) return e.code
    if (e instanceof lean.ToolnexusError) return e.code
    throw e
  }
}

const made = new ToolnexusError("http_status", "LLM 500", { status: 500 })
// @ts-expect-error the first argument is an ErrorCode
new ToolnexusError("nope", "x")
void handle(() => createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m" }).run("hi", { toolkit: undefined as never }))
void made

// relayTool: the options form and the positional form.
relayTool({ name: "find", description: "Finds on the host", inputSchema: { type: "object", properties: {} } })
relayTool("find", "Finds on the host")
// @ts-expect-error description is required in the options form
relayTool({ name: "find" })
