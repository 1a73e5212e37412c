// A Service Worker that is an A2A agent (SPEC §7B) at this origin's /a2a-agent/: its card at
// /a2a-agent/.well-known/agent-card.json, JSON-RPC (SendMessage, GetTask) at /a2a-agent/. The
// agent is a toolkit (calculator, clock, dice) run by the scripted demo model, served with
// `toolkit.handler({client, a2a})`; its tasks live in the handler's in-memory store, for as
// long as the browser keeps this worker running. The page (a2a.html) calls it with its own
// agent over `fetch`, which this worker answers: no server, no network.
//
// It also keeps the demo's own files (precached at install, refreshed from the network when it
// answers) so the page loads and works offline. It counts what it serves and tells the page:
// each A2A exchange is posted to the page, and a `{type: "a2a-stats"}` message is answered
// with the totals (on the MessagePort it carries, else to its sender). `toolnexus-wasm/web` because a service worker may not use top-level await.
import { createInProcessClient, createToolkit, defineTool, initializeWasm } from "/pkg/web.js"
import { generate } from "/demo-model.js"
import { EVERYDAY_TOOLS } from "/everyday-tools.js"

const MOUNT = "/a2a-agent/"
const CACHE = "toolnexus-a2a-demo-v1"
const WASM = "/pkg/web/toolnexus_bg.wasm"
const SHELL = ["/a2a.html", "/a2a.js", "/style.css", "/demo-model.js", "/everyday-tools.js", "/pkg/index.js", WASM]

const SKILL = {
  name: "everyday",
  description: "Works out arithmetic (“What is 6 times 7?”), rolls dice, and tells the time in a city",
  content: "Use the calculator, roll_dice and clock tools.",
}

/** What this worker answered since it started: every request under MOUNT, and the tasks it ran. */
const served = { requests: 0, methods: {}, tasks: {} }

/** The module from the cache when it is there (offline), else from the network. */
async function wasmResponse() {
  return (await caches.match(WASM)) ?? fetch(WASM)
}

const handler = (async () => {
  await initializeWasm(await wasmResponse())
  const toolkit = await createToolkit({
    builtins: false,
    extraTools: EVERYDAY_TOOLS.map((spec) => defineTool(spec)),
    skills: [SKILL],
  })
  const client = createInProcessClient({ model: "demo", generate })
  return toolkit.handler({
    client,
    a2a: {
      name: "Worker Desk",
      description: "An agent that runs in this page's Service Worker",
      url: new URL(MOUNT, self.location.origin).href,
    },
    onTask: ({ id, state }) => {
      served.tasks[id] = state
    },
  })
})()

/** Tells every page this worker controls (best effort: a page may be gone). */
async function tell(message) {
  for (const page of await self.clients.matchAll()) page.postMessage(message)
}

/** The JSON-RPC method of a body, when it reads as one. */
function rpcMethod(body) {
  try {
    return JSON.parse(body)?.method
  } catch {
    return undefined
  }
}

/** The task of an A2A answer (a Task, `{task}` in A2A 1.0, or an error), as `{id, state}`. */
async function taskOf(response) {
  try {
    const { result } = await response.json()
    const task = result?.task ?? result
    return { taskId: task?.id, state: task?.status?.state }
  } catch {
    return {}
  }
}

/** One request under MOUNT: the handler sees it at the root (`/`, `/.well-known/…`). */
async function serveAgent(request, url) {
  const serve = await handler
  const body = request.method === "POST" ? await request.text() : undefined
  const path = url.pathname.slice(MOUNT.length - 1)
  const inner = new Request(new URL(path + url.search, url.origin), { method: request.method, headers: request.headers, body })
  const response = await serve(inner)
  const what = body === undefined ? `${request.method} ${path}` : (rpcMethod(body) ?? "POST")
  served.requests += 1
  served.methods[what] = (served.methods[what] ?? 0) + 1
  const task = what === "SendMessage" || what === "GetTask" ? await taskOf(response.clone()) : {}
  void tell({ type: "a2a-served", n: served.requests, what, status: response.status, ...task })
  return response
}

/** The demo's files: the network's copy (kept for later), else the kept one. */
async function networkFirst(request) {
  const cache = await caches.open(CACHE)
  try {
    const response = await fetch(request)
    if (response.ok) await cache.put(request, response.clone())
    return response
  } catch (thrown) {
    const kept = await cache.match(request, { ignoreSearch: true })
    if (kept) return kept
    throw thrown
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  )
})
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()))
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url)
  if (url.origin !== self.location.origin) return
  if (url.pathname.startsWith(MOUNT)) event.respondWith(serveAgent(event.request, url))
  else if (event.request.method === "GET") event.respondWith(networkFirst(event.request))
})
self.addEventListener("message", (event) => {
  if (event.data?.type !== "a2a-stats") return
  const reply = event.ports[0] ?? event.source
  reply?.postMessage({ type: "a2a-stats", ...structuredClone(served) })
})
