// The durable path in Node: a run halts on an approval, the halted run and the transcript go to
// files, and a later process (here: the same one, with a fresh client and toolkit) resumes it
// with the answer. The model is an in-process scripted one so the example runs offline; swap in
// createClient({baseUrl, style, model, apiKey, store}) for a real endpoint.
// Run (after `npm run build`): node_modules/.bin/tsc -p examples && node target/examples/durable-file-store.js [directory]
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInProcessClient, createToolkit, defineTool, pending } from "toolnexus-wasm"
import type { Answer, InProcessOptions, Message, PendingStore, RunResult, Toolkit } from "toolnexus-wasm"

/**
 * Transcripts and halted runs as JSON files, one per id: the same interface as the browser's
 * IndexedDbConversationStore and WebStorageConversationStore.
 */
class FileStore implements PendingStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true })
  }
  path(kind: "conversation" | "pending", id: string): string {
    return join(this.dir, `${kind}-${encodeURIComponent(id)}.json`)
  }
  async get(id: string): Promise<Message[] | undefined> {
    const file = this.path("conversation", id)
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
  }
  async save(id: string, messages: Message[]): Promise<void> {
    writeFileSync(this.path("conversation", id), JSON.stringify(messages, null, 2))
  }
  async savePending(id: string, result: RunResult): Promise<void> {
    writeFileSync(this.path("pending", id), JSON.stringify(result, null, 2))
  }
  async loadPending(id: string): Promise<RunResult | undefined> {
    const file = this.path("pending", id)
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
  }
  async deletePending(id: string): Promise<void> {
    rmSync(this.path("pending", id), { force: true })
  }
}

/** The same tool in every process that may resume the run. */
async function makeToolkit(): Promise<Toolkit> {
  const refund = defineTool({
    name: "refund",
    description: "Refunds an order; a human approves first",
    inputSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
    run: (args, ctx) =>
      ctx.answer?.ok
        ? `refunded order ${args.order} (approved by ${String(ctx.answer.data?.by ?? "someone")})`
        : pending({ kind: "approval", prompt: `Refund order ${args.order}?`, data: { order: args.order } }),
  })
  return createToolkit({ extraTools: [refund], builtins: false })
}

const scripted: InProcessOptions["generate"] = async ({ messages }) => {
  const last = messages[messages.length - 1]
  if (last.role === "tool") return { content: `The refund tool says: ${String(last.content)}` }
  return { toolCalls: [{ name: "refund", arguments: { order: "A-1001" } }] }
}

const dir = process.argv[2] ?? join(tmpdir(), "toolnexus-durable-example")
const store = new FileStore(dir)
const thread = "support-42"

// 1. The first process: the run halts (no waitFor) and the halted run is stored.
{
  const client = createInProcessClient({ model: "scripted", generate: scripted, store })
  const halted = await client.ask("Please refund my order A-1001", { toolkit: await makeToolkit(), id: thread })
  if (halted.status !== "pending" || !halted.pending) throw new Error(`expected a halt, got ${halted.status}`)
  await store.savePending(thread, halted)
  console.log(`halted: ${halted.pending.prompt} (saved in ${dir})`)
}

// 2. Later, anywhere: load the halted run, ask a human, resume through the store.
{
  const halted = await store.loadPending(thread)
  if (!halted?.pending) throw new Error("nothing to resume")
  const client = createInProcessClient({ model: "scripted", generate: scripted, store })
  const answer: Answer = { id: halted.pending.id, ok: true, data: { by: "ops@example.com" } }
  const done = await client.askWithAnswer({ toolkit: await makeToolkit(), id: thread, pending: halted.pending, answer })
  await store.deletePending(thread)
  console.log(`${done.status}: ${done.text}`)
  console.log(`transcript: ${(await store.get(thread))?.length} messages in ${store.path("conversation", thread)}`)
}
