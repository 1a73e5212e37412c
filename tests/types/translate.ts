// Type tests of single-turn translation (SPEC §11): `client.translate`, `Client.toolCallsJSON`
// and the translate helpers, in the full build and the lean core.
import {
  Client,
  createClient,
  createToolkit,
  openAIMessagesToAnthropic,
  openAIToolsToAnthropic,
  openAIToolChoiceToAnthropic,
  finishReasonFor,
  argsObject,
  argsString,
  toolCallsOf,
  contentText,
  hasSystemMessage,
  type AnthropicMessage,
  type AnthropicTool,
  type AnthropicToolChoice,
  type FinishReason,
  type OpenAIToolCall,
  type TranslateMessage,
  type TranslateRequest,
  type TranslateResult,
  type TranslatedToolCall,
} from "toolnexus-wasm"
import * as core from "toolnexus-wasm/core"

const client = createClient({ baseUrl: "http://127.0.0.1:1", style: "anthropic", model: "m" })
const toolkit = await createToolkit({ builtins: false })

const messages: TranslateMessage[] = [
  { role: "system", content: "Be terse." },
  { role: "user", content: [{ type: "text", text: "weather?" }] },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "w", arguments: "{}" } }] },
  // Arguments as an object, and no `type`: some clients send that.
  { role: "assistant", tool_calls: [{ id: "c2", function: { name: "w", arguments: { city: "Oslo" } } }] },
  { role: "tool", tool_call_id: "c1", content: "31C" },
]
const request: TranslateRequest = {
  messages,
  tools: [{ type: "function", function: { name: "w", description: "Weather", parameters: { type: "object" } } }],
  toolkit,
  toolChoice: { type: "function", function: { name: "w" } },
  system: "Override.",
  maxTokens: 256,
  signal: new AbortController().signal,
}
const result: TranslateResult = await client.translate(request)
const text: string = result.text
const calls: TranslatedToolCall[] = result.toolCalls
const args: string = calls[0].arguments
const reason: FinishReason | (string & {}) = result.finishReason
const total: number = result.usage.totalTokens
const model: string = result.model
const raw = result.raw
const rendered: OpenAIToolCall[] = Client.toolCallsJSON(result)
await client.translate({ messages: [{ role: "user", content: "hi" }], toolChoice: "required" })
// @ts-expect-error messages are required
await client.translate({ tools: [] })
// @ts-expect-error maxTokens is a number
await client.translate({ messages, maxTokens: "10" })

const converted: { messages: AnthropicMessage[]; system: string } = openAIMessagesToAnthropic(messages)
const tools: AnthropicTool[] = openAIToolsToAnthropic(request.tools)
const none: AnthropicTool[] = openAIToolsToAnthropic(undefined)
const choice: AnthropicToolChoice | undefined = openAIToolChoiceToAnthropic("required")
const finish: FinishReason = finishReasonFor(false, "max_tokens")
const finishBare: FinishReason = finishReasonFor(true)
const object: Record<string, unknown> = argsObject('{"a":1}')
const json: string = argsString({ a: 1 })
const of: TranslatedToolCall[] = toolCallsOf(messages[2])
const flat: string = contentText([{ type: "text", text: "a" }])
const hasSystem: boolean = hasSystemMessage(messages)

// translate is the full build's: the lean core has neither the method nor the helpers.
const lean = core.createClient({ baseUrl: "http://127.0.0.1:1", style: "openai", model: "m" })
// @ts-expect-error no translate on the lean client
const leanResult = lean.translate
// @ts-expect-error nor toolCallsJSON
const leanCalls = core.Client.toolCallsJSON
// @ts-expect-error nor the helpers
const leanFinish = core.finishReasonFor

export {
  text, args, reason, total, model, raw, rendered, converted, tools, none, choice, finish, finishBare, object, json, of, flat,
  hasSystem, leanCalls, leanFinish,
}
