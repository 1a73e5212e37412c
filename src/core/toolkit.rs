//! The toolkit (SPEC §4): deterministic assembly of every source, routing by name, and the
//! checks every call goes through before a tool runs.

use crate::core::json::value::Value;
use crate::core::names::Names;
use crate::core::text::JoinWith;
use std::cell::RefCell;
use std::rc::Rc;

use super::builtin_toggle;
use super::execute::{run_checked, run_checked_ref};
use super::host::{Clock, LocalBoxFuture};
use super::spec::ToolSpec;
use super::tool::{Context, SharedTool};
use super::types::ToolResult;
use super::wire::ToolList;

/// Every tool source, before assembly.
#[derive(Default)]
pub struct Sources {
    /// MCP tools, already named `sanitize(server)_sanitize(tool)`.
    pub mcp: Vec<SharedTool>,
    /// The `skill` tool, when skills exist.
    pub skill: Option<SharedTool>,
    /// The skill catalog for the system prompt (`SkillSet::prompt`); empty without skills.
    pub skills_prompt: String,
    /// Every built-in tool; the toggle in `builtins_config` picks which stay.
    pub builtins: Vec<SharedTool>,
    /// The `builtins` option as given (`false`, `{disabled}`, `{enabled}`, `{tools: {...}}`).
    pub builtins_config: Option<Value>,
    /// A2A agent tools.
    pub agents: Vec<SharedTool>,
    /// The host's own tools (`extraTools`).
    pub extras: Vec<SharedTool>,
    /// Final names to drop, across every source.
    pub disable_tools: Vec<String>,
}

/// An assembled set of tools with one router. Shared freely (`Rc<Toolkit>`): registering a
/// tool while a run is using the toolkit is safe, since no borrow outlives a method call.
///
/// ```
/// # use toolnexus::core::toolkit::{Sources, Toolkit};
/// let (kit, warnings) = Toolkit::assemble(Sources::default());
/// assert!(kit.tools().is_empty() && warnings.is_empty());
/// ```
#[derive(Default)]
pub struct Toolkit {
    inner: RefCell<Inner>,
    clock: Option<Rc<dyn Clock>>,
    skills_prompt: String,
    /// `disable_tools`, kept for tools that arrive later ([`replace`](Self::replace)).
    disabled: Vec<String>,
}

/// Told a source's tools before and after they changed (an MCP server's `list_changed`, through
/// `McpSource::on_tools_changed`); a toolkit answers it with [`Toolkit::replace`].
pub type ToolsChanged = Rc<dyn Fn(&[SharedTool], &[SharedTool])>;

#[derive(Default)]
struct Inner {
    tools: Vec<SharedTool>,
    index: Names<usize>,
    /// Provider tool lists already built, by format name; cleared when a tool is registered.
    lists: Vec<(&'static str, Rc<ToolList>)>,
}

impl Toolkit {
    /// Assembles in the contract's order: built-ins shadowed by an extra tool of the same name
    /// are dropped, then MCP → skill → built-in → agents → extras are concatenated, names in
    /// `disable_tools` are skipped, and the first of a duplicate name wins. Returns a warning
    /// per dropped duplicate.
    pub fn assemble(sources: Sources) -> (Self, Vec<String>) {
        let extra_names: Vec<String> = sources
            .extras
            .iter()
            .map(|t| t.spec().name.clone())
            .collect();
        let builtins = builtin_toggle::select(sources.builtins_config.as_ref(), sources.builtins)
            .into_iter()
            .filter(|b| !extra_names.contains(&b.spec().name));
        let all = sources
            .mcp
            .into_iter()
            .chain(sources.skill)
            .chain(builtins)
            .chain(sources.agents)
            .chain(sources.extras);
        let kit = Toolkit {
            skills_prompt: sources.skills_prompt,
            disabled: sources.disable_tools.clone(),
            ..Toolkit::default()
        };
        let mut warnings = Vec::new();
        for tool in all {
            if sources.disable_tools.contains(&tool.spec().name) {
                continue;
            }
            if let Err(warning) = kit.register(tool) {
                warnings.push(warning);
            }
        }
        (kit, warnings)
    }

    /// Gives the toolkit a clock, so a call's `timeout_ms` is enforced.
    pub fn set_clock(&mut self, clock: Rc<dyn Clock>) {
        self.clock = Some(clock);
    }

    /// Every tool, in assembly order.
    pub fn tools(&self) -> Vec<SharedTool> {
        self.inner.borrow().tools.clone()
    }

    /// Calls `f` with every tool's spec, in assembly order.
    ///
    /// ```
    /// # use toolnexus::core::{adapters::to_openai, toolkit::Toolkit};
    /// let kit = Toolkit::default();
    /// assert_eq!(kit.with_specs(|specs| to_openai(specs.iter().copied())).to_string(), "[]");
    /// ```
    pub fn with_specs<T>(&self, f: impl FnOnce(&[&ToolSpec]) -> T) -> T {
        let inner = self.inner.borrow();
        let specs: Vec<&ToolSpec> = inner.tools.iter().map(|t| t.spec()).collect();
        f(&specs)
    }

    /// The provider tool list of format `format`, built by `build` from every spec the first
    /// time and kept until the toolkit changes, so runs do not rebuild it.
    ///
    /// ```
    /// # use toolnexus::core::{adapters::openai_text, toolkit::Toolkit};
    /// let kit = Toolkit::default();
    /// let list = kit.tool_list("openai", |specs| openai_text(specs.iter().copied()));
    /// let again = kit.tool_list("openai", |_| r#"["never built"]"#.into());
    /// assert!(std::rc::Rc::ptr_eq(&list, &again));
    /// assert_eq!(again.text(), "[]");
    /// ```
    pub fn tool_list(
        &self,
        format: &'static str,
        build: impl FnOnce(&[&ToolSpec]) -> String,
    ) -> Rc<ToolList> {
        if let Some((_, list)) = self.inner.borrow().lists.iter().find(|(f, _)| *f == format) {
            return list.clone();
        }
        let list = Rc::new(ToolList::from_text(self.with_specs(build)));
        self.inner.borrow_mut().lists.push((format, list.clone()));
        list
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<SharedTool> {
        let inner = self.inner.borrow();
        let position = *inner.index.get(name)?;
        inner.tools.get(position).cloned()
    }

    /// The system-prompt catalog of the toolkit's skills; empty when it has no skill source.
    pub fn skills_prompt(&self) -> String {
        self.skills_prompt.clone()
    }

    /// Adds a tool; a name already present is kept and the new one refused with a warning.
    ///
    /// ```
    /// # use toolnexus::core::toolkit::Toolkit;
    /// let kit = Toolkit::default();
    /// assert!(kit.get("missing").is_none());
    /// ```
    pub fn register(&self, tool: SharedTool) -> Result<(), String> {
        let mut inner = self.inner.borrow_mut();
        let name = tool.spec().name.clone();
        if inner.index.contains_key(&name) {
            return Err(format!("duplicate tool name \"{name}\" — keeping first"));
        }
        let position = inner.tools.len();
        inner.index.insert(name, position);
        inner.tools.push(tool);
        inner.lists.clear();
        Ok(())
    }

    /// Swaps tools `old` (found by identity) for `new`, in the place of the first of `old` (at
    /// the end when none is left); a name in `new` already taken by a tool that stays is
    /// refused with a warning, a disabled name skipped. Used when an MCP server's tool list
    /// changed.
    ///
    /// ```
    /// # use toolnexus::core::toolkit::Toolkit;
    /// let kit = Toolkit::default();
    /// assert!(kit.replace(&[], Vec::new()).is_empty());
    /// ```
    pub fn replace(&self, old: &[SharedTool], new: Vec<SharedTool>) -> Vec<String> {
        let mut inner = self.inner.borrow_mut();
        let is_old = |t: &SharedTool| old.iter().any(|o| Rc::ptr_eq(o, t));
        let at = inner.tools.iter().position(is_old);
        let mut kept: Vec<SharedTool> =
            inner.tools.iter().filter(|t| !is_old(t)).cloned().collect();
        let mut warnings = Vec::new();
        let mut added = Vec::new();
        for tool in new {
            let name = &tool.spec().name;
            if self.disabled.contains(name) {
                continue;
            }
            if kept
                .iter()
                .chain(&added)
                .any(|t: &SharedTool| &t.spec().name == name)
            {
                warnings.push(format!("duplicate tool name \"{name}\" — keeping first"));
            } else {
                added.push(tool);
            }
        }
        let at = at.unwrap_or(kept.len()).min(kept.len());
        kept.splice(at..at, added);
        let mut index = Names::default();
        for (position, tool) in kept.iter().enumerate() {
            index.insert(tool.spec().name.clone(), position);
        }
        *inner = Inner {
            tools: kept,
            index,
            lists: Vec::new(),
        };
        warnings
    }

    /// Routes a call: an unknown name, arguments that are not an object or do not match the
    /// tool's input schema each come back as an error result without running anything.
    pub fn execute(
        &self,
        name: &str,
        args: Value,
        ctx: Context,
    ) -> LocalBoxFuture<'static, ToolResult> {
        self.route(name, |tool, clock| run_checked(tool, args, ctx, clock))
    }

    /// [`execute`](Self::execute) with borrowed arguments, for a caller that keeps them
    /// (see [`run_checked_ref`](super::execute::run_checked_ref)).
    pub fn execute_ref(
        &self,
        name: &str,
        args: &Value,
        ctx: Context,
    ) -> LocalBoxFuture<'static, ToolResult> {
        self.route(name, |tool, clock| run_checked_ref(tool, args, ctx, clock))
    }

    /// `run` with the tool called `name` (and the toolkit's clock), or the unknown-tool result.
    fn route(
        &self,
        name: &str,
        run: impl FnOnce(SharedTool, Option<Rc<dyn Clock>>) -> LocalBoxFuture<'static, ToolResult>,
    ) -> LocalBoxFuture<'static, ToolResult> {
        match self.get(name) {
            Some(tool) => run(tool, self.clock.clone()),
            None => {
                let result = ToolResult::error(self.unknown_tool_message(name));
                Box::pin(async move { result })
            }
        }
    }

    fn unknown_tool_message(&self, name: &str) -> String {
        let names = self.with_specs(|specs| {
            specs
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join_with(", ")
        });
        let available = if names.is_empty() {
            "none".to_owned()
        } else {
            names
        };
        format!("Unknown tool: {name}. Available tools: {available}")
    }
}
