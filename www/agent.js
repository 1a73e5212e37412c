// An agent run entirely in the page: a scripted in-process model calls `transfer`, the tool
// suspends with an approval request, and waitFor shows a <dialog> whose button resolves it.
import { createInProcessClient, createToolkit, defineTool, pending } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)

const transfer = defineTool({
  name: "transfer",
  description: "Sends money to someone; needs the user's approval",
  inputSchema: {
    type: "object",
    properties: { to: { type: "string" }, amount: { type: "number", minimum: 0 } },
    required: ["to", "amount"],
  },
  run: ({ to, amount }, ctx) =>
    ctx.answer?.ok
      ? `Sent ${amount} EUR to ${to}.`
      : pending({ kind: "approval", prompt: `Send ${amount} EUR to ${to}?`, data: { to, amount } }),
})

/** The scripted model: asks for a transfer, then reports what the tool said. */
async function generate({ messages }) {
  const last = messages[messages.length - 1]
  if (last.role === "tool") return { content: `The transfer tool answered: ${last.content}` }
  const text = String(last.content)
  const amount = Number(text.match(/\d+(\.\d+)?/)?.[0] ?? 10)
  const to = text.match(/pay\s+(\w+)/i)?.[1] ?? "Bob"
  return { toolCalls: [{ name: "transfer", arguments: { to, amount } }] }
}

/** waitFor: shows the dialog and resolves with the button the user pressed. */
function askInDialog(request) {
  const dialog = $("#approval")
  $("#approval-prompt").textContent = request.prompt
  $("#approval-args").textContent = JSON.stringify(request.data ?? {}, null, 2)
  dialog.showModal()
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        const ok = dialog.returnValue === "approve"
        resolve(ok ? { id: request.id, ok } : { id: request.id, ok, reason: "declined" })
      },
      { once: true },
    )
  })
}

const toolkit = await createToolkit({ extraTools: [transfer] })
const inPage = createInProcessClient({ model: "scripted-demo", generate, waitFor: askInDialog })
const durable = createInProcessClient({ model: "scripted-demo", generate })

$("#ask-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const client = $("#durable").checked ? durable : inPage
  $("#ask").disabled = true
  $("#answer").dataset.state = "running"
  $("#answer").textContent = "Working…"
  try {
    const result = await client.run($("#prompt").value, { toolkit })
    $("#answer").dataset.state = result.status
    $("#answer").textContent =
      result.status === "pending" ? `Halted, waiting for: ${result.pending.prompt}` : result.text
    $("#run-result").textContent = JSON.stringify(result, null, 2)
  } catch (error) {
    $("#answer").dataset.state = "error"
    $("#answer").textContent = `${error.code ?? "error"}: ${error.message}`
  } finally {
    $("#ask").disabled = false
  }
})

$("#status").dataset.state = "ready"
$("#status").textContent = "Ready"
$("#ask").disabled = false
