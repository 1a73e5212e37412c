// Typings of a2a-serve.js (the entries export the stores and `buildAgentCard`; `a2aRoutes` is
// internal, used by `toolkit.handler`).
import type { Answer as RouteAnswer, RequestView } from "./serve-exchange.js"
import type { A2AConfig, A2ATask, AgentCard, Answer, OnTask, Request as PendingRequest, RunResult, TaskStore } from "../ts/index.js"

/** Tasks in this process's memory (the default store). */
export declare class InMemoryTaskStore implements TaskStore {
  get(id: string): Promise<A2ATask | undefined>
  save(task: A2ATask): Promise<void>
}

/** Tasks on disk (Node, Bun, Deno): one `<id>.json` per task under `dir`, written then renamed. */
export declare class FileTaskStore implements TaskStore {
  constructor(dir: string)
  /** The directory the tasks are in. */
  readonly dir: string
  get(id: string): Promise<A2ATask | undefined>
  save(task: A2ATask): Promise<void>
}

/**
 * `"memory"` / absent → in memory, `"file:<dir>"` → on disk, `"indexeddb[:<database>]"` → an
 * `IndexedDbTaskStore` (browsers and their workers), a store object → itself.
 */
export declare function resolveStore(store?: TaskStore | "memory" | (string & {})): TaskStore

/** The Agent Card of a served toolkit (the reference's fields plus A2A 1.0's `supportedInterfaces`). */
export declare function buildAgentCard(config: A2AConfig | undefined, skills: { name: string; description?: string }[], url: string): AgentCard

/** @internal The A2A routes of `toolkit.handler`. */
export declare function a2aRoutes(options: {
  config: A2AConfig
  skills: () => { name: string; description?: string }[]
  run: (text: string, contextId: string | undefined) => Promise<RunResult>
  resume: (suspended: { pending: PendingRequest; messages?: unknown[] }, answer: Answer, contextId: string | undefined) => Promise<RunResult>
  onTask?: OnTask
}): (view: RequestView) => Promise<RouteAnswer> | undefined
