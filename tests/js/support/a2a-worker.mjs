// One serving process of the A2A scale-out test (a2a-scale.test.mjs): a toolkit served as an
// A2A agent on 127.0.0.1:0 over a FileTaskStore shared with the other process, each task run
// on the test's model stub. It prints `a2a-worker <owner> <url>` once listening and stops on
// SIGTERM (the test also SIGKILLs one mid-run).
//   A2A_MODEL_URL  the model stub's base URL      A2A_STORE_DIR  the shared task directory
//   A2A_OWNER      this process's lease owner     A2A_LEASE      the lease, in ms
import { createClient, createToolkit } from "../../../pkg/node.mjs"

const { A2A_MODEL_URL, A2A_STORE_DIR, A2A_OWNER, A2A_LEASE } = process.env
const client = createClient({
  baseUrl: A2A_MODEL_URL,
  style: "openai",
  model: "m",
  apiKey: "sk-worker-secret",
  retries: 0,
  headers: { "x-worker": A2A_OWNER },
})
const toolkit = await createToolkit({ builtins: false })
const server = await toolkit.serve("127.0.0.1:0", {
  client,
  a2a: { name: "scale-desk", store: `file:${A2A_STORE_DIR}`, owner: A2A_OWNER, lease: Number(A2A_LEASE) },
})
process.stdout.write(`a2a-worker ${A2A_OWNER} ${server.url}\n`)
process.once("SIGTERM", () => {
  server.stop().then(() => process.exit(0))
})
