//! Hierarchical budgets (SPEC §7D): a handle's pools are carved at spawn as
//! `min(own, parent remaining)`, drained live by every descendant's usage, and walked up the
//! tree before each turn and spawn.

use crate::core::jsfmt::number;

crate::record! {
    /// The limits an agent runs under. Every field is optional; a set one must be a positive
    /// number.
    #[derive(Default)]
    pub struct Budget as "struct Budget" {
        /// Model calls over the handle's life (default 6).
        pub max_turns: Option<f64> = "maxTurns",
        /// A token pool shared downward with descendants.
        pub max_tokens: Option<f64> = "maxTokens",
        /// A tool-call pool shared downward with descendants.
        pub max_tool_calls: Option<f64> = "maxToolCalls",
        /// A wall-clock deadline in milliseconds from spawn (min'd with the parent's).
        pub max_wall_ms: Option<f64> = "maxWallMs",
        /// Direct children, checked at spawn.
        pub max_children: Option<f64> = "maxChildren",
        /// Children running at once (default 8); more wakes queue FIFO.
        pub max_concurrent: Option<f64> = "maxConcurrent",
        /// Tree depth below this handle's children (default 3), checked at spawn.
        pub max_depth: Option<f64> = "maxDepth",
    }
}

impl Budget {
    /// Each field with its JSON name, in declaration order.
    fn fields(&self) -> [(&'static str, Option<f64>); 7] {
        [
            ("maxTurns", self.max_turns),
            ("maxTokens", self.max_tokens),
            ("maxToolCalls", self.max_tool_calls),
            ("maxWallMs", self.max_wall_ms),
            ("maxChildren", self.max_children),
            ("maxConcurrent", self.max_concurrent),
            ("maxDepth", self.max_depth),
        ]
    }

    /// The first field that is not a positive finite number, as a sentence.
    ///
    /// ```
    /// # use toolnexus::core::agents::budget::Budget;
    /// let mut b = Budget::default();
    /// assert_eq!(b.check(), Ok(()));
    /// b.max_tokens = Some(0.0);
    /// assert_eq!(b.check().unwrap_err(), "budget.maxTokens must be a positive number (got 0)");
    /// ```
    pub fn check(&self) -> Result<(), String> {
        for (name, value) in self.fields() {
            if let Some(v) = value {
                if !(v.is_finite() && v > 0.0) {
                    return Err(format!(
                        "budget.{name} must be a positive number (got {})",
                        number(v)
                    ));
                }
            }
        }
        Ok(())
    }

    /// `self` with every field `over` sets replacing it (a spawn's budget over the def's).
    ///
    /// ```
    /// # use toolnexus::core::agents::budget::Budget;
    /// let own = Budget { max_turns: Some(3.0), ..Budget::default() };
    /// let over = Budget { max_tokens: Some(9.0), ..Budget::default() };
    /// let merged = own.overlaid(&over);
    /// assert_eq!((merged.max_turns, merged.max_tokens), (Some(3.0), Some(9.0)));
    /// ```
    pub fn overlaid(&self, over: &Budget) -> Budget {
        Budget {
            max_turns: over.max_turns.or(self.max_turns),
            max_tokens: over.max_tokens.or(self.max_tokens),
            max_tool_calls: over.max_tool_calls.or(self.max_tool_calls),
            max_wall_ms: over.max_wall_ms.or(self.max_wall_ms),
            max_children: over.max_children.or(self.max_children),
            max_concurrent: over.max_concurrent.or(self.max_concurrent),
            max_depth: over.max_depth.or(self.max_depth),
        }
    }
}

/// `min(own, parent remaining)`, where `None` is unlimited.
///
/// ```
/// # use toolnexus::core::agents::budget::carve;
/// assert_eq!(carve(Some(500.0), Some(100.0)), Some(100.0));
/// assert_eq!(carve(None, Some(100.0)), Some(100.0));
/// assert_eq!(carve(Some(5.0), None), Some(5.0));
/// assert_eq!(carve(None, None), None);
/// ```
pub fn carve(own: Option<f64>, parent: Option<f64>) -> Option<f64> {
    match (own, parent) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A handle's remaining shared pools (`None`: unlimited). Plain data.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pools {
    /// Tokens left for the handle and its subtree.
    pub tokens: Option<f64>,
    /// Tool calls left for the handle and its subtree.
    pub tool_calls: Option<f64>,
    /// Direct children it may still have in all.
    pub children: Option<f64>,
}

impl Pools {
    /// Spends `tokens` and `tool_calls` (usage roll-up is the ledger).
    pub fn spend(&mut self, tokens: u64, tool_calls: u64) {
        if let Some(t) = &mut self.tokens {
            *t -= tokens as f64;
        }
        if let Some(c) = &mut self.tool_calls {
            *c -= tool_calls as f64;
        }
    }

    /// The first exhausted pool's limit name.
    pub fn exhausted(&self) -> Option<&'static str> {
        if self.tokens.is_some_and(|t| t <= 0.0) {
            Some("maxTokens")
        } else if self.tool_calls.is_some_and(|c| c <= 0.0) {
            Some("maxToolCalls")
        } else {
            None
        }
    }
}

/// A handle's own caps after defaults. Plain data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Caps {
    /// Model calls over its life.
    pub max_turns: f64,
    /// Children running at once.
    pub max_concurrent: f64,
    /// Depth cap for spawns under it.
    pub max_depth: f64,
}

impl Caps {
    /// The caps of `budget`, defaults filled in (6 turns, 8 concurrent, depth 3).
    pub fn of(budget: &Budget) -> Caps {
        Caps {
            max_turns: budget.max_turns.unwrap_or(6.0),
            max_concurrent: budget.max_concurrent.unwrap_or(8.0),
            max_depth: budget.max_depth.unwrap_or(3.0),
        }
    }
}
