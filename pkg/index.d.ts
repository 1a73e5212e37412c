export * from "./web/toolnexus.js"
export * from "./stores.js"
import type { ToolLike, StreamEvent, StreamOptions } from "./web/toolnexus.js"

declare module "./web/toolnexus.js" {
  interface Toolkit {
    /** Adds tools at run time; the first of a duplicate name wins. Returns the toolkit. */
    register(...tools: ToolLike[]): this
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
