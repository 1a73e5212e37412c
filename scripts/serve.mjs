#!/usr/bin/env node
// The demo server: www/ at "/" and the built package (pkg/) at "/pkg/", on 127.0.0.1 only.
// No dependencies. Port: --port N, else $PORT, else 8080 when free, else any free port
// (--port 0 always picks a free one). Prints "toolnexus-wasm demo: http://127.0.0.1:<port>/".
// Tests reuse `startServer` to serve any directory (tests/vite-app serves its dist/).
import { createReadStream } from "node:fs"
import { stat } from "node:fs/promises"
import { createServer } from "node:http"
import { extname, join, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
}

/** The file a URL path names under `routes` ({"/pkg/": dir, "/": dir}), or null. */
function locate(routes, pathname) {
  const prefix = Object.keys(routes)
    .sort((a, b) => b.length - a.length)
    .find((p) => pathname.startsWith(p))
  if (!prefix) return null
  const base = resolve(routes[prefix])
  const file = resolve(base, "." + sep + decodeURIComponent(pathname.slice(prefix.length)))
  return file === base || file.startsWith(base + sep) ? file : null
}

async function handle(routes, req, res) {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" }).end()
    return
  }
  let file = locate(routes, new URL(req.url ?? "/", "http://x").pathname)
  let info = file && (await stat(file).catch(() => null))
  if (info?.isDirectory()) {
    file = join(file, "index.html")
    info = await stat(file).catch(() => null)
  }
  if (!info?.isFile()) {
    res.writeHead(404, { "content-type": MIME[".txt"] }).end("not found\n")
    return
  }
  res.writeHead(200, {
    "content-type": MIME[extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    "cache-control": "no-store",
  })
  if (req.method === "HEAD") res.end()
  else createReadStream(file).pipe(res)
}

function listen(server, port) {
  return new Promise((ok, fail) => {
    server.once("error", fail)
    server.listen(port, "127.0.0.1", () => {
      server.off("error", fail)
      ok()
    })
  })
}

/**
 * Serves `routes` on 127.0.0.1. `port: undefined` tries 8080 and falls back to a free port.
 * Resolves to {url, port, close()}.
 */
export async function startServer({ routes, port }) {
  const server = createServer((req, res) => {
    handle(routes, req, res).catch(() => res.writeHead(500).end())
  })
  if (port === undefined) {
    await listen(server, 8080).catch((e) => (e.code === "EADDRINUSE" ? listen(server, 0) : Promise.reject(e)))
  } else {
    await listen(server, port)
  }
  const actual = server.address().port
  const close = () => new Promise((ok) => server.close(ok).closeAllConnections())
  return { url: `http://127.0.0.1:${actual}/`, port: actual, close }
}

function portFromArgs(argv, env) {
  const at = argv.indexOf("--port")
  const raw = at >= 0 ? argv[at + 1] : (argv.find((a) => a.startsWith("--port="))?.slice(7) ?? env.PORT)
  if (raw === undefined || raw === "") return undefined
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${raw}`)
  return port
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL("..", import.meta.url))
  const routes = { "/pkg/": join(repo, "pkg"), "/": join(repo, "www") }
  try {
    const { url } = await startServer({ routes, port: portFromArgs(process.argv.slice(2), process.env) })
    console.log(`toolnexus-wasm demo: ${url}`)
  } catch (error) {
    console.error(`serve.mjs: ${error.message}`)
    process.exit(1)
  }
}
