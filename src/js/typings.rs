//! The TypeScript of the wasm-bindgen glue names the types of its parameters and results
//! (`unchecked_param_type` / `unchecked_return_type`); they are declared once, in the TypeScript
//! facade (`src/ts/core/types.ts`, `src/ts/types.ts`), and imported here. The glue and its typings
//! are internal: the package's public API is the facade's.

use wasm_bindgen::prelude::*;

/// The lean build's glue: its types from `src/ts/core/types.ts` (`#types` in `src/ts/tsconfig.json`).
#[cfg(not(feature = "full"))]
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r##"
import type { Agent, AgentOptions, AgentStatus, AnthropicTool, AskOptions, Prompt, AskResumeOptions, ClientOptions, ConversationOptions,
  ConversationStore, DefineToolOptions, GeminiTools, JSONSchema, McpStatus, Message, OpenAITool,
  PendingInput, RelayToolOptions, Request, ResumeOptions, RunOptions, RunResult, StreamEvent,
  StreamOptions, ToolContext, ToolLike, ToolResult, ToolkitOptions } from "#types"
"##;

/// The full build's glue: its types from `src/ts/types.ts` (`#types-full` in `src/ts/tsconfig.json`).
#[cfg(feature = "full")]
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r##"
import type { Agent, AgentOptions, AgentsConfig, AgentStatus, Answer, ContentPart, PartOptions, Prompt, AnthropicMessage, AnthropicTool, AnthropicToolChoice, AskOptions,
  AskResumeOptions, BuiltinToolsOptions, BuiltinsConfig, ClientOptions, ConversationOptions,
  ConversationStore, DefineToolOptions, ElicitResult, ElicitationParams, FinishReason,
  GeminiTools, JSONSchema, ListSkillsOptions, LoadMcpOptions, LoadSkillsOptions, McpConfigInput,
  McpInventory, McpListOptions, McpServerInput, McpStatus, MemoryFileSystemJSON, Message,
  OpenAITool, OpenAIToolCall, PendingInput, RelayToolOptions, Request, ResumeOptions,
  RunOptions, RunResult, SkillInfo, SkillInventory, StreamEvent, StreamOptions, ToolContext,
  ToolLike, ToolResult, ToolkitOptions, ToolnexusDirEntry, TranslateMessage, TranslateRequest,
  TranslateResult, TranslatedToolCall, MCPServeConfig, OnCallEvent } from "#types-full"
"##;
