// The demo chat takes an image: a PNG made in the page is dropped on the composer, shown as an
// attachment, sent with a question as content parts; the demo model answers with the image's
// type and size, the thread shows the image, and after a reload the stored transcript (IndexedDB)
// still holds it.
import assert from "node:assert/strict"
import { join } from "node:path"
import { before, describe, it } from "node:test"
import { onDemoPage, shots } from "./browser.mjs"

describe("the demo chat: drop an image", () => {
  const browser = onDemoPage("image", "/")
  let page

  before(async () => {
    page = browser.page
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
  })

  it("sends a dropped PNG as a content part and shows it in the thread", async () => {
    // A 64×48 PNG drawn in the page, dropped on the composer as a File.
    await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement("canvas"), { width: 64, height: 48 })
      const g = canvas.getContext("2d")
      g.fillStyle = "#c33"
      g.fillRect(0, 0, 64, 48)
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"))
      const drop = new DataTransfer()
      drop.items.add(new File([blob], "red.png", { type: "image/png" }))
      document.querySelector("#composer").dispatchEvent(new DragEvent("drop", { dataTransfer: drop, bubbles: true, cancelable: true }))
    })
    await page.locator("#attachments .attachment img").waitFor()
    await page.fill("#prompt", "What is this?")
    await page.click("#send")
    await page.locator('body[data-state="idle"]').waitFor({ timeout: 15_000 })
    const reply = await page.locator(".msg.assistant .bubble").last().textContent()
    assert.match(reply, /^I see an image: image\/png, [\d,]+ bytes, 64×48 pixels\./)
    assert.equal(await page.locator("#attachments").isHidden(), true, "the attachment went with the message")
    const shown = await page.locator(".msg.user .bubble img.part").getAttribute("src")
    assert.match(shown, /^data:image\/png;base64,iVBORw0KGgo/)
    await page.screenshot({ path: join(shots, "demo-image.png"), fullPage: true })

    // The transcript in IndexedDB kept the part: after a reload the image is still there.
    await page.reload()
    await page.locator('#status[data-state="ready"]').waitFor({ timeout: 15_000 })
    await page.locator(".msg.user .bubble img.part").waitFor()
    assert.equal(await page.locator(".msg.user .bubble").first().textContent(), "What is this?")
  })

  it("logged no page errors", () => {
    assert.deepEqual(browser.problems, [])
  })
})
