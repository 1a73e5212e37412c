// Typings of serve-exchange.js (internal: the shape `toolkit.handler` and `serve` share).

/** A request as the serving routes read it. */
export interface RequestView {
  method: string
  /** The URL's path (`/mcp`). */
  path: string
  /** The URL's origin (`http://127.0.0.1:8080`). */
  origin: string
  /** A header by its lower-case name (repeats joined), or `undefined`. */
  header(name: string): string | undefined
  /** The body's text, or `{tooLarge}` when it is (or declares itself) over `maxBytes`. */
  readText(maxBytes: number): Promise<string | { tooLarge: number }>
  readonly signal: AbortSignal | undefined
}

/** What a route answers. */
export interface Answer {
  status: number
  headers: Record<string, string> | [string, string][]
  /** Text, or a stream of bytes written as it comes (an MCP call that asks the client first). */
  body: string | ReadableStream<Uint8Array> | null
}

/** A dispatch of views to answers. */
export type Dispatch = (view: RequestView) => Promise<Answer>

/** The property of a handler made by `handlerOf` holding its dispatch. */
export declare const DISPATCH: unique symbol
export declare function viewOfRequest(request: Request): RequestView
export declare function responseOf(answer: Answer): Response
export declare function handlerOf(dispatch: Dispatch): ((request: Request) => Promise<Response>) & { [DISPATCH]: Dispatch }
export declare function textAnswer(status: number, text: string): Answer
export declare function jsonAnswer(value: unknown, status?: number): Answer
