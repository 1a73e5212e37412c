// Typings of http-tool.js (internal: the entries export its `httpTool`).
import type { DefineToolOptions, HttpToolOptions, Tool } from "../ts/index.js"

/** The `httpTool` of one module, over that module's `defineTool`. */
export declare function httpToolWith(defineTool: (options: DefineToolOptions) => Tool): (options: HttpToolOptions) => Tool
