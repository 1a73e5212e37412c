// A Service Worker serving a toolkit as an A2A agent at this origin (SPEC §7B), its tasks in an
// IndexedDbTaskStore, so they outlive the worker and a reload of the page, and the page (or any
// worker of the origin) reads them. Used by tests/e2e/idb-task-store.test.mjs. Its model is an
// in-process one that answers "ANSWER: <task>". `toolnexus-wasm/web` because a service worker
// may not use top-level await (nor `import()`, which the task store does not need).
import { initializeWasm, createInProcessClient, createToolkit, IndexedDbTaskStore } from "/pkg/web.js"

const handler = (async () => {
  await initializeWasm("/pkg/web/toolnexus_bg.wasm")
  const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: `ANSWER: ${messages.at(-1).content}` }) })
  const toolkit = await createToolkit({ builtins: false })
  return toolkit.handler({ client, a2a: { name: "sw-desk", store: new IndexedDbTaskStore("a2a-sw") } })
})()

self.addEventListener("install", () => self.skipWaiting())
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()))
self.addEventListener("fetch", (event) => {
  const { pathname } = new URL(event.request.url)
  const isA2A = (event.request.method === "POST" && pathname === "/") || pathname === "/.well-known/agent-card.json"
  if (isA2A) event.respondWith(handler.then((serve) => serve(event.request)))
})
