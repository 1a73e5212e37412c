#!/usr/bin/env node
// The demo server: www/ at "/" and pkg/ at "/pkg/" on 127.0.0.1 only, through sirv in dev mode (files
// read on each request, sent no-store). Port: --port N, else $PORT, else 8080 when free, else any free
// port (--port 0 always picks a free one). Prints "toolnexus-wasm demo: http://127.0.0.1:<port>/".
// Tests reuse `startServer` to serve any directory (tests/vite-app serves its dist/).
import { createServer } from "node:http"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import sirv from "sirv"

const notFound = (res) => res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n")

/**
 * Serves `routes` ({"/pkg/": dir, "/": dir}; prefixes end in "/") on 127.0.0.1. GET and HEAD only.
 * `port: undefined` tries 8080 and falls back to a free port. Resolves to {url, port, close()}.
 */
export async function startServer({ routes, port }) {
  const mounts = Object.keys(routes).sort((a, b) => b.length - a.length).map((p) => [p, sirv(routes[p], { dev: true })])
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return res.writeHead(405, { allow: "GET, HEAD" }).end()
    const [prefix, serve] = mounts.find(([p]) => req.url.startsWith(p)) ?? []
    if (!serve) return notFound(res)
    req.url = req.url.slice(prefix.length - 1)
    try { serve(req, res, () => notFound(res)) } catch { res.writeHead(500).end() }
  })
  const listen = (p) => new Promise((ok, fail) => server.once("error", fail).listen(p, "127.0.0.1", () => ok(server.off("error", fail))))
  if (port !== undefined) await listen(port)
  else await listen(8080).catch((e) => (e.code === "EADDRINUSE" ? listen(0) : Promise.reject(e)))
  const actual = server.address().port
  const close = () => new Promise((ok) => server.close(ok).closeAllConnections())
  return { url: `http://127.0.0.1:${actual}/`, port: actual, close }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL("..", import.meta.url))
  const argv = process.argv.slice(2), at = argv.indexOf("--port")
  const raw = at >= 0 ? argv[at + 1] : (argv.find((a) => a.startsWith("--port="))?.slice(7) ?? process.env.PORT)
  const port = raw === undefined || raw === "" ? undefined : Number(raw)
  try {
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new Error(`invalid port: ${raw}`)
    const { url } = await startServer({ routes: { "/pkg/": join(repo, "pkg"), "/": join(repo, "www") }, port })
    console.log(`toolnexus-wasm demo: ${url}`)
  } catch (error) {
    console.error(`serve.mjs: ${error.message}`)
    process.exit(1)
  }
}
