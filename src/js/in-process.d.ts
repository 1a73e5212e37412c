// Typings of in-process.js (internal: the entries export its `createInProcessClient`).
import type { ClientOptions, InProcessOptions } from "../ts/index.js"

/** The `createInProcessClient` of one module, over that module's `createClient`. */
export declare function inProcessWith<C>(createClient: (options: ClientOptions) => C): (options: InProcessOptions) => C
