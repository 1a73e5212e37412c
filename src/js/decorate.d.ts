// Typings of decorate.js (internal: the entries export its `tool` and `collectTools`).
import type { JSONSchema, Tool, ToolDecorator } from "../ts/index.js"

/** The `tool` and `collectTools` of one module, over that module's `defineTool`. */
export declare function decoratorsWith(defineTool: (options: never) => Tool): {
  tool(description: string, options?: { name?: string; inputSchema?: JSONSchema }): ToolDecorator
  collectTools(object: object): Tool[]
}
