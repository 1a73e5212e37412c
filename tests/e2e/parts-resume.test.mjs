// A halted run whose transcript holds an image, in Chromium: saved with
// IndexedDbConversationStore.savePending, the page reloaded, loaded back and resumed with
// runWithAnswer; the model's next request still carries the image as its provider block.
import assert from "node:assert/strict"
import { describe, it } from "node:test"
import { onDemoPage } from "./browser.mjs"

/** The page's scripted model: approves through a tool, then answers; records what it saw. */
const setUp = async () => {
  const m = await import("/pkg/index.js")
  const approve = m.defineTool({ name: "approve", run: (_a, ctx) => (ctx.answer?.ok ? "approved" : m.pending({ kind: "approval", prompt: "ok?" })) })
  const toolkit = await m.createToolkit({ builtins: false, extraTools: [approve] })
  const seen = []
  const generate = ({ messages }) => {
    seen.push(messages)
    return messages.at(-1).role === "tool" ? { content: "thanks" } : { toolCalls: [{ id: "c1", name: "approve", arguments: {} }] }
  }
  return { m, toolkit, seen, client: m.createInProcessClient({ model: "m", generate }) }
}

describe("a halted run with an image, kept in IndexedDB across a reload", () => {
  const browser = onDemoPage("parts-resume")

  it("resumes after the reload with the image still sent", async () => {
    const halted = await browser.page.evaluate(async (source) => {
      const { m, toolkit, client } = await new Function(`return (${source})()`)()
      const shot = m.part({ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" })
      const halted = await client.run(["Is this fine?", shot], { toolkit })
      await new m.IndexedDbConversationStore("parts-resume").savePending("thread", halted)
      return { status: halted.status, user: halted.messages[0] }
    }, setUp.toString())
    assert.equal(halted.status, "pending")
    assert.deepEqual(halted.user.content[1], { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" })

    await browser.page.reload()
    const resumed = await browser.page.evaluate(async (source) => {
      const { m, toolkit, client, seen } = await new Function(`return (${source})()`)()
      const stored = await new m.IndexedDbConversationStore("parts-resume").loadPending("thread")
      const done = await client.runWithAnswer({ toolkit, history: stored.messages, pending: stored.pending, answer: { id: stored.pending.id, ok: true } })
      return { text: done.text, sent: seen.at(-1)[0] }
    }, setUp.toString())
    assert.equal(resumed.text, "thanks")
    assert.deepEqual(resumed.sent, { role: "user", content: [
      { type: "text", text: "Is this fine?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    ] })
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
