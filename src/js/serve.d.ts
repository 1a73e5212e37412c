// Typings of serve.js (internal: the entries export `McpServer`, `exposedMcpTools` and, over
// the module, `buildMcpServer`, `toolkit.handler`, `toolkit.serve`).
import type { MCPServeConfig, OnCall, OnCallEvent, ServeHandle, Tool } from "../ts/index.js"

/** How a transport asks its client an `elicitation/create` (the modes it declared). */
export interface ElicitationAsker {
  form: boolean
  url: boolean
  ask(params: string): Promise<unknown>
}

/** The module's MCP server core (`McpServerCore`), as this file uses it. */
export interface McpServerCoreLike {
  exchange(
    method: string,
    path: string,
    accept: string | undefined,
    contentType: string | undefined,
    protocolVersion: string | undefined,
    body: string,
    signal: AbortSignal | undefined,
    asker?: ElicitationAsker,
  ): Promise<[number, [string, string][], string, OnCallEvent | undefined]>
  message(text: string, signal: AbortSignal | undefined, asker?: ElicitationAsker): Promise<[string | undefined, OnCallEvent | undefined]>
}

/** A JSON-RPC 2.0 message, as an MCP transport carries it. */
export type JSONRPCMessage = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: unknown; result?: unknown; error?: unknown }

/** What {@link McpServer.connect} needs of an MCP SDK `Transport`. */
export interface McpTransportLike {
  /** Starts delivering messages to `onmessage`. */
  start(): Promise<void>
  /** Sends one message to the peer. */
  send(message: JSONRPCMessage): Promise<void>
  /** Closes the transport. */
  close(): Promise<void>
  /** Set by the server: receives each message from the peer. */
  onmessage?: (message: JSONRPCMessage, extra?: unknown) => void
  /** Set by the server: called once the transport closed. */
  onclose?: () => void
  /** Set by the server: called on a transport failure. */
  onerror?: (error: Error) => void
}

/** The elicitation modes `initialize` params declare (`capabilities.elicitation`), if any. */
export declare function elicitationModes(params: unknown): { form: boolean; url: boolean } | undefined
import type { Dispatch } from "./serve-exchange.js"

/** @internal The MCP route of `toolkit.handler` over request views. */
export declare function mcpDispatch(core: McpServerCoreLike | undefined, onCall?: OnCall): Dispatch
export declare function fetchHandler(core: McpServerCoreLike | undefined, onCall?: OnCall): (request: Request) => Promise<Response>
export declare function exposedMcpTools<T extends Pick<Tool, "name">>(tools: T[], config?: MCPServeConfig): T[]
/** `handler` is one made by `handlerOf` (serve-exchange.js), as `toolkit.handler` makes it. */
export declare function listen(handler: (request: Request) => Promise<Response>, addr: string): Promise<ServeHandle>

/**
 * An MCP server over a set of tools (made by `buildMcpServer`).
 *
 * ```js
 * const server = buildMcpServer(toolkit.tools(), { name: "gateway" })
 * const response = await server.handle(new Request("http://x/mcp", { method: "POST", headers, body }))
 * ```
 */
export declare class McpServer {
  /** @internal Made by `buildMcpServer`. */
  constructor(core: McpServerCoreLike, onCall?: OnCall)
  /**
   * Answers one HTTP request: `POST /mcp` is MCP streamable HTTP (stateless; JSON or an event
   * stream as the request's `Accept` prefers), `GET /mcp` 405, other paths 404.
   *
   * ```js
   * Deno.serve((request) => server.handle(request))
   * ```
   */
  handle(request: Request): Promise<Response>
  /**
   * Answers one JSON-RPC message; `undefined` for a notification or a response. `extra.ask`
   * lets a tool that suspends ask the client: the modes it declared and `ask(params)`, which
   * sends an `elicitation/create` with those params (JSON text) and resolves to its result.
   *
   * ```js
   * await server.handleMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" }) // { jsonrpc: "2.0", id: 1, result: { tools: [...] } }
   * ```
   */
  handleMessage(
    message: JSONRPCMessage,
    extra?: { signal?: AbortSignal; ask?: { form: boolean; url: boolean; ask(params: string): Promise<unknown> } },
  ): Promise<JSONRPCMessage | undefined>
  /**
   * Serves an MCP SDK transport (stdio, in-memory, …); `notifications/cancelled` aborts the
   * call it names.
   *
   * ```js
   * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
   * await server.connect(serverSide)
   * ```
   */
  connect(transport: McpTransportLike): Promise<void>
  /**
   * Closes every transport `connect` serves.
   */
  close(): Promise<void>
}
