export * from "./web/toolnexus.js"
export * from "./stores.js"
export * from "./errors.js"
export * from "./define-tool.js"
// define-tool.js's defineTool (typed from its schema) is the one the entries export.
export { defineTool } from "./define-tool.js"
/**
 * Long-lived agents (SPEC §7D–§7F): today {@link agents.compactor}, a `beforeLLM` hook that
 * compacts a transcript over budget, and {@link agents.estimateTokens}, its default estimator.
 */
export * as agents from "./agents.js"
import type { ToolLike, StreamEvent, StreamOptions, HttpToolOptions, Tool, InProcessOptions, Client, JSONSchema } from "./web/toolnexus.js"

/**
 * Declares an HTTP endpoint as a tool (`source: "http"`). `{placeholders}` in `url` are filled
 * from the arguments (URL-encoded) and left out of the body; `query` names go to the query
 * string (every argument on `GET`); the rest is the body (`"json"` by default, `"form"`, or
 * `"raw"`: the `body` argument). Header values expand `${NAME}` from `env` (by default
 * `process.env` / `Deno.env` where the runtime has one); they are never logged or echoed. A
 * non-2xx status resolves to `{isError: true, output: "HTTP <status>: <body>"}`; a 2xx to the
 * body with `metadata.status`. `timeout` (ms, default 30000) aborts the request. Bad options
 * throw an `Error` with `code` `"invalid_options"` (`"invalid_tool"` for a bad name or schema).
 *
 * ```js
 * import { httpTool, createToolkit } from "toolnexus-wasm"
 * const issue = httpTool({
 *   name: "get_issue", description: "Reads a GitHub issue", method: "GET",
 *   url: "https://api.github.com/repos/{owner}/{repo}/issues/{number}",
 *   headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
 *   inputSchema: { type: "object", properties: { owner: { type: "string" }, repo: { type: "string" }, number: { type: "integer" } }, required: ["owner", "repo", "number"] },
 * })
 * const toolkit = await createToolkit({ extraTools: [issue] })
 * ```
 */
export declare function httpTool(options: HttpToolOptions): Tool

/**
 * A client whose model runs in this process: `generate({messages, tools, model, body})`
 * returns `{content}` or `{toolCalls: [{id?, name, arguments}]}` (plus optional `usage`).
 * Messages are OpenAI-shaped; hooks, shaping and the loop behave as over HTTP. Failures of
 * `generate` are final (code `"model"`, never retried); `retries` defaults to 0.
 *
 * ```js
 * import { createInProcessClient } from "toolnexus-wasm"
 * const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: "Hello!" }) })
 * ```
 */
export declare function createInProcessClient(options: InProcessOptions): Client

/**
 * A decorator that makes the decorated method (or function) a tool (SPEC §6): named
 * `options.name`, else the method's (or function's) name, else the key {@link collectTools}
 * finds an anonymous function under; `options.inputSchema`, else `defineTool`'s default.
 * TC39 decorators (TypeScript 5 without `experimentalDecorators`), or a plain call on a
 * function. A bad name or schema throws where it is applied (`code` `"invalid_tool"`).
 *
 * ```ts
 * class Maths { @tool("Adds a and b") add({ a, b }: { a: number; b: number }) { return String(a + b) } }
 * const toolkit = await createToolkit({ extraTools: collectTools(new Maths()) })
 * const helpers = { shout: tool("Upper-cases text")(function shout(args: { text: string }) { return args.text.toUpperCase() }) }
 * ```
 */
export declare function tool(description: string, options?: { name?: string; inputSchema?: JSONSchema }): ToolDecorator

/**
 * What {@link tool} returns: applied to a method (as a decorator) or to a function (as a call),
 * it registers the tool and returns the method or function unchanged.
 *
 * @typeParam F The decorated method or function.
 */
export type ToolDecorator = <F extends (...args: never[]) => unknown>(
  value: F,
  context?: { name?: string | symbol; addInitializer?(initializer: (this: never) => void): void },
) => F

/**
 * The tools {@link tool} made for `object`: an instance's decorated methods (each called on
 * the instance), then its own properties that are decorated functions.
 */
export declare function collectTools(object: object): Tool[]

// full build only: begin (the lean core, toolnexus-wasm/core, has no skills)
/** The preamble `skillsPrompt()` starts with when a skill has a description (byte for byte the reference port's). */
export declare const SKILLS_PROMPT_PREAMBLE: string
/** The `skill` tool's description (byte for byte the reference port's). */
export declare const SKILL_TOOL_DESCRIPTION: string
// full build only: end

declare module "./web/toolnexus.js" {
  interface Toolkit {
    /** Adds tools at run time; the first of a duplicate name wins. Returns the toolkit. */
    register(...tools: ToolLike[]): this
    /** `await using toolkit = await createToolkit(...)`: {@link Toolkit.close} at the block's end. */
    [Symbol.asyncDispose](): Promise<void>
  }
  interface Client {
    /**
     * Runs the loop with streamed model calls; `for await` yields text deltas, tool calls and
     * results, `pending` (before `waitFor` runs), `usage` and finally `done` with the result.
     * Breaking out of the loop aborts the run and its in-flight request.
     */
    stream(prompt: string, ctx: StreamOptions): AsyncIterableIterator<StreamEvent>
  }
}
