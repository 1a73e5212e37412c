// A local round-robin HTTP proxy on 127.0.0.1:0 for the A2A scale-out test: request n goes to
// backend n mod N (counted on arrival, so N consecutive requests reach each backend once); a
// backend that refuses the connection (a stopped process) is skipped for the next, as a load
// balancer's health check would; when none answers, 502. Bodies are small JSON-RPC requests,
// read whole before forwarding.
import http from "node:http"

/** Starts the proxy over `backends` (base URLs); resolves to `{url, counts, close()}`. */
export async function startRoundRobinProxy(backends) {
  let next = 0
  /** Requests each backend answered, by URL. */
  const counts = Object.fromEntries(backends.map((b) => [b, 0]))
  const forward = (backend, req, body) =>
    new Promise((resolve, reject) => {
      const target = new URL(req.url, backend)
      const headers = { ...req.headers, host: target.host }
      const out = http.request(target, { method: req.method, headers, agent: false }, resolve)
      out.once("error", reject)
      out.end(body)
    })
  const server = http.createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const body = Buffer.concat(chunks)
    const first = next++
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[(first + i) % backends.length]
      let answer
      try {
        answer = await forward(backend, req, body)
      } catch (thrown) {
        if (thrown.code === "ECONNREFUSED") continue
        res.writeHead(502, { "content-type": "text/plain" })
        return res.end(`proxy: ${backend} failed: ${thrown.code ?? thrown.message}`)
      }
      counts[backend]++
      res.writeHead(answer.statusCode, answer.headers)
      answer.pipe(res)
      return
    }
    res.writeHead(502, { "content-type": "text/plain" })
    res.end("proxy: no backend answered")
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
