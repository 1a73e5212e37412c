// The mock OpenAI-style endpoint on 127.0.0.1 (an ephemeral port): the same bytes as the
// in-process fake fetch. Prints `listening <port>` and serves until it is killed, or until
// its parent goes away (stdin closes), or after --max-seconds (a bound for a forgotten server).
import http from "node:http"
import { respond } from "./script.mjs"

const maxSeconds = Number(process.argv.find((a) => a.startsWith("--max-seconds="))?.split("=")[1] ?? 3600)

const server = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8")
    const text = req.method === "POST" ? respond(req.url, body) : null
    if (text === null) {
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("not found")
      return
    }
    const bytes = Buffer.from(text)
    res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length })
    res.end(bytes)
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`)
})
process.stdin.on("end", () => process.exit(0))
process.stdin.resume()
setTimeout(() => process.exit(0), maxSeconds * 1000).unref()
