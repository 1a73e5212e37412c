//! Sub-agents and the agent runtime (SPEC §7D, `source: "agent"`): an agent is a system prompt,
//! a filtered view of the toolkit and the §8 loop; a runtime runs a tree of them as handles.
//!
//! | file | what |
//! |---|---|
//! | [`registry`] | agent definitions, checked (unknown tools/agents, team cycles, budgets) |
//! | [`budget`] | `Budget`, the carve `min(own, parent remaining)`, pools and caps |
//! | [`data`] | the records: handle state, inbox item, task result and status, handle row and detail |
//! | [`options`] | `RuntimeOptions` (checked) and `LlmSettings` |
//! | [`runtime`] | the verbs `spawn`, `post`, `wake`, `wait`, `interrupt`, `list`, `inspect` |
//! | [`close`] | `close`, leaf-first |
//! | [`durable`] | the runtime's state as JSON (`saved_state`, `save_state`) and a runtime rebuilt from it (`restore`) |
//! | [`resume`] | the Answer routed to the deepest suspended handle; inline and durable resume |
//! | `replay` | a replayed turn's tools answer the calls its halted run already made |
//! | `interpreter` | a handle's `waitFor`: nearest interpreter wins, one hop at a time |
//! | `admission` | a wake's admission, slot transfer, the live budget walk |
//! | `turn` | one turn: the handle's client, its run, the outcome recorded |
//! | [`completion`] | the completion gate a turn runs through: the host's verifier, the re-asks |
//! | [`task`] | the `task` tool: delegation to a team member |
//! | [`as_tool`] | an agent as a `Tool` (`source: "agent"`) and a one-shot run |
//! | [`inbox`] | the coalesced drain of the unsolicited rail |
//! | [`gate`] | the global turn gate around every model call |
//! | [`snapshot`] | the handle table as records (`HandleRecord`), plain JSON |
//! | [`signal`], [`waiter`], [`node`] | a turn's abort seam, a waiter's slot, a handle's record |

mod admission;
pub mod as_tool;
pub mod budget;
pub mod close;
pub mod completion;
pub mod data;
pub mod durable;
pub mod gate;
pub mod inbox;
mod interpreter;
pub mod node;
pub mod options;
pub mod registry;
mod replay;
pub mod resume;
pub mod runtime;
pub mod signal;
pub mod snapshot;
pub mod task;
mod turn;
pub mod waiter;
