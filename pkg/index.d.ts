export * from "./web/toolnexus.js"
import type { ToolLike } from "./web/toolnexus.js"

declare module "./web/toolnexus.js" {
  interface Toolkit {
    /** Adds tools at run time; the first of a duplicate name wins. Returns the toolkit. */
    register(...tools: ToolLike[]): this
  }
}
