// A Service Worker serving a toolkit as an MCP server at this origin's /mcp (SPEC §7C): the
// page's own agent (or any MCP client in the page) reaches tools that run here, offline, with
// no server. `toolnexus-wasm/web` because a service worker may not use top-level await.
import { initializeWasm, createToolkit, defineTool } from "/pkg/web.js"

const handler = (async () => {
  await initializeWasm("/pkg/web/toolnexus_bg.wasm")
  const clock = defineTool({
    name: "worker_time",
    description: "The time where the tool runs, with the scope of the worker that ran it",
    run: () => `${new Date(0).toISOString()} in ${self.registration.scope}`,
  })
  const toolkit = await createToolkit({ builtins: false, extraTools: [clock] })
  return toolkit.handler({ mcp: { name: "service-worker" } })
})()

self.addEventListener("install", () => self.skipWaiting())
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()))
self.addEventListener("fetch", (event) => {
  if (new URL(event.request.url).pathname === "/mcp") event.respondWith(handler.then((serve) => serve(event.request)))
})
