//! The registry (SPEC §7D): agents by name, each with what it does, its model, the toolkit tools
//! it may use, the agents it may delegate to, its budget and its soul. Checked once when it is
//! built: an unknown tool or agent, a cycle in the team graph, or a budget field that is not a
//! positive number is a [`RegistryError`].

use std::rc::Rc;

use super::budget::Budget;
use super::completion::Completion;
use super::data::{CloseReason, HandleView};
use crate::core::client::hooks::{Hooks, WaitFor};
use crate::core::client::telemetry::MetricSink;
use crate::core::host::LocalBoxFuture;
use crate::core::names::Names;
use crate::core::text::JoinWith;
use crate::core::tool::SharedTool;

/// Runs once when a handle of the agent is spawned, before its first turn.
pub type OnSpawn = Rc<dyn Fn(&HandleView)>;
/// Runs when a handle of the agent closes, before its final state is kept.
pub type OnClose = Rc<dyn Fn(&HandleView, CloseReason) -> LocalBoxFuture<'static, ()>>;

/// One agent definition.
///
/// ```
/// # use toolnexus::core::agents::registry::AgentDef;
/// let explore = AgentDef { tools: vec!["lookup".into()], ..AgentDef::new("explore", "read-only research") };
/// assert_eq!(explore.name, "explore");
/// ```
#[derive(Clone, Default)]
pub struct AgentDef {
    /// Its name: the registry key, the `task` target, a segment of its handles' ids.
    pub name: String,
    /// What it does: what a delegating model reads.
    pub does: String,
    /// Its identity, sent as the system prompt (empty: none).
    pub soul: String,
    /// The model; `None` or `"inherit"` takes the runtime's.
    pub model: Option<String>,
    /// Names of the toolkit tools it may use (its view of the toolkit is its security model).
    pub tools: Vec<String>,
    /// The agents it may delegate to through `task`; empty: no `task` tool at all.
    pub team: Vec<String>,
    /// Its budget.
    pub budget: Budget,
    /// Answers suspensions of its own tools (and, later, of its subtree).
    pub wait_for: Option<Rc<dyn WaitFor>>,
    /// See [`OnSpawn`].
    pub on_spawn: Option<OnSpawn>,
    /// See [`OnClose`].
    pub on_close: Option<OnClose>,
    /// §8 hooks for its client: set, they replace the runtime's for this agent.
    pub hooks: Option<Rc<dyn Hooks>>,
    /// §8 metric sink for its client: set, it replaces the runtime's for this agent.
    pub on_metric: Option<Rc<dyn MetricSink>>,
    /// The completion gate every turn of its handles runs through, delegated ones included.
    pub completion: Option<Completion>,
}

impl AgentDef {
    /// A definition with a name and a description, everything else default.
    pub fn new(name: impl Into<String>, does: impl Into<String>) -> Self {
        AgentDef {
            name: name.into(),
            does: does.into(),
            ..AgentDef::default()
        }
    }
}

/// An agent of a checked registry: its definition and its resolved tools.
#[derive(Clone)]
pub struct Agent {
    /// The definition.
    pub def: AgentDef,
    /// Its tools, in the order its definition names them.
    pub tools: Vec<SharedTool>,
}

/// Why a registry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Two definitions share a name.
    #[error("agent \"{0}\" is defined twice")]
    Duplicate(String),
    /// A definition has no name.
    #[error("an agent has an empty name")]
    EmptyName,
    /// A definition names a tool the toolkit does not have.
    #[error("agent \"{agent}\": unknown tool \"{tool}\" (known: {known})")]
    UnknownTool {
        /// The agent.
        agent: String,
        /// The tool it names.
        tool: String,
        /// The tools there are, sorted.
        known: String,
    },
    /// A team names an agent the registry does not have.
    #[error("agent \"{agent}\": unknown team agent \"{member}\" (known: {known})")]
    UnknownAgent {
        /// The agent.
        agent: String,
        /// The team member it names.
        member: String,
        /// The agents there are, sorted.
        known: String,
    },
    /// The team graph has a cycle.
    #[error("team cycle: {0}")]
    Cycle(String),
    /// A budget field is not a positive number, or the completion gate allows no attempt.
    #[error("agent \"{agent}\": {problem}")]
    Budget {
        /// The agent.
        agent: String,
        /// Which field and what it was.
        problem: String,
    },
}

/// The checked agents, by name (iteration is name-sorted, as traces and prose need).
///
/// ```
/// # use toolnexus::core::agents::registry::{AgentDef, Registry, RegistryError};
/// let coord = AgentDef { team: vec!["explore".into()], ..AgentDef::new("coordinator", "delegates") };
/// let err = Registry::new(vec![coord], &[]).err().unwrap();
/// assert_eq!(err.to_string(), "agent \"coordinator\": unknown team agent \"explore\" (known: coordinator)");
/// ```
#[derive(Clone, Default)]
pub struct Registry {
    agents: Names<Rc<Agent>>,
}

impl Registry {
    /// Checks `defs` against the toolkit `tools` they may name.
    pub fn new(defs: Vec<AgentDef>, tools: &[SharedTool]) -> Result<Registry, RegistryError> {
        let mut agents: Names<Rc<Agent>> = Names::default();
        let mut tool_names: Vec<&str> = tools.iter().map(|t| t.spec().name.as_str()).collect();
        tool_names.sort_unstable();
        for def in defs {
            if def.name.is_empty() {
                return Err(RegistryError::EmptyName);
            }
            if agents.contains_key(def.name.as_str()) {
                return Err(RegistryError::Duplicate(def.name));
            }
            def.budget
                .check()
                .map_err(|problem| RegistryError::Budget {
                    agent: def.name.clone(),
                    problem,
                })?;
            if let Some(gate) = &def.completion {
                gate.check().map_err(|problem| RegistryError::Budget {
                    agent: def.name.clone(),
                    problem,
                })?;
            }
            let mut resolved = Vec::with_capacity(def.tools.len());
            for name in &def.tools {
                let tool = tools
                    .iter()
                    .find(|t| t.spec().name == *name)
                    .ok_or_else(|| RegistryError::UnknownTool {
                        agent: def.name.clone(),
                        tool: name.clone(),
                        known: known(&tool_names),
                    })?;
                resolved.push(tool.clone());
            }
            let name = def.name.clone();
            agents.insert(
                name,
                Rc::new(Agent {
                    def,
                    tools: resolved,
                }),
            );
        }
        let registry = Registry { agents };
        registry.check_teams()?;
        Ok(registry)
    }

    /// The agent called `name`.
    pub fn get(&self, name: &str) -> Option<&Rc<Agent>> {
        self.agents.get(name)
    }

    /// Every agent's name, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.agents.keys().map(String::as_str).collect()
    }

    fn check_teams(&self) -> Result<(), RegistryError> {
        let names = self.names();
        for (name, agent) in self.agents.iter() {
            for member in &agent.def.team {
                if !self.agents.contains_key(member.as_str()) {
                    return Err(RegistryError::UnknownAgent {
                        agent: name.clone(),
                        member: member.clone(),
                        known: known(&names),
                    });
                }
            }
        }
        // Depth-first, from each name in order: a member already on the path closes a cycle.
        let mut done: Vec<&str> = Vec::new();
        for name in &names {
            let mut path = Vec::new();
            self.visit(name, &mut path, &mut done)?;
        }
        Ok(())
    }

    fn visit<'a>(
        &'a self,
        name: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) -> Result<(), RegistryError> {
        if let Some(at) = path.iter().position(|p| *p == name) {
            let mut cycle: Vec<&str> = path.iter().skip(at).copied().collect();
            cycle.push(name);
            return Err(RegistryError::Cycle(cycle.join_with(" → ")));
        }
        if done.contains(&name) {
            return Ok(());
        }
        path.push(name);
        if let Some(agent) = self.agents.get(name) {
            let mut team: Vec<&str> = agent.def.team.iter().map(String::as_str).collect();
            team.sort_unstable();
            for member in team {
                self.visit(member, path, done)?;
            }
        }
        path.pop();
        done.push(name);
        Ok(())
    }
}

fn known(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join_with(", ")
    }
}
