//! `translate` (SPEC §11): an OpenAI-shaped request, exactly one provider call, the reply in
//! OpenAI shape. No loop, no tool ever runs, nothing is kept between calls. The call is the
//! loop's own ([`Llm`]): retries, request parameters, `bodyTransform`, the `llm` metric event,
//! the client's deadline. `beforeLLM` and `afterLLM` fire once (turn 0); tool hooks never do.

use crate::core::json::value::Value;
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::call::{CallContext, Llm};
use super::error::RunError;
use super::run::{check_signal, Client};
use crate::core::host::{LocalBoxFuture, Signal};
use crate::core::message;
use crate::core::toolkit::Toolkit;
use crate::core::translate::helpers::{openai_messages_to_anthropic, openai_tools_to_anthropic};
use crate::core::translate::{anthropic_result, openai_result, TranslateRequest, TranslateResult};
use crate::core::wire::ToolList;

/// One `translate` call's input.
pub struct TranslateInput {
    /// The request's JSON parts, already checked ([`TranslateRequest::read`]).
    pub request: TranslateRequest,
    /// A toolkit whose tools are declared (first) and never run.
    pub toolkit: Option<Rc<Toolkit>>,
    /// Aborts the call.
    pub signal: Option<Signal>,
}

impl Client {
    /// Sends one translated request and reads the reply back (see the module doc). Errors are
    /// the loop's: the call failed, a hook threw, or it was aborted or timed out.
    pub fn translate(
        &self,
        input: TranslateInput,
    ) -> LocalBoxFuture<'static, Result<TranslateResult, RunError>> {
        let client = self.clone();
        Box::pin(async move {
            check_signal(&input.signal)?;
            let deadline = client
                .config
                .timeout_ms
                .map(|ms| client.clock.now_ms() + ms);
            let signal = input.signal.clone();
            let work = Box::pin(client.translate_once(input, deadline));
            let stop = Box::pin(client.stop_when(signal, deadline));
            match select(work, stop).await {
                Either::Left((outcome, _)) => outcome,
                Either::Right((error, _)) => Err(error),
            }
        })
    }

    async fn translate_once(
        &self,
        input: TranslateInput,
        deadline: Option<f64>,
    ) -> Result<TranslateResult, RunError> {
        let TranslateInput {
            mut request,
            toolkit,
            signal,
        } = input;
        let dialect = self.dialect.clone();
        let anthropic = dialect.name() == "anthropic";
        let model = self.config.model.clone();
        // The request's system prompt, else the client's; on Anthropic, else the hoisted one.
        let configured = Some(self.config.system_prompt.clone()).filter(|s| !s.is_empty());
        let chosen = request.system.clone().or(configured);
        let mut tools: Vec<Value> = match &toolkit {
            Some(kit) => match kit
                .tool_list(dialect.name(), |specs| dialect.tools(specs))
                .value()
            {
                Value::Array(declared) => declared.clone(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        // The request's messages and tools are taken out of it, not copied: only its body
        // options (tool_choice, max_tokens) are read below.
        let given_tools = std::mem::take(&mut request.tools);
        let (messages, system) = if anthropic {
            let given = Value::Array(std::mem::take(&mut request.messages));
            let (messages, hoisted) = openai_messages_to_anthropic(&given);
            tools.extend(openai_tools_to_anthropic(&Value::Array(given_tools)));
            (messages, chosen.unwrap_or(hoisted))
        } else {
            let system = chosen.unwrap_or_default();
            tools.extend(given_tools);
            (request.take_openai_messages(&system), system)
        };
        let mut messages = message::from_values(messages);
        let mut tools = Rc::new(ToolList::new(Value::Array(tools)));
        if self.hooks.has_before_llm() {
            let over = self
                .hooks
                .before_llm(&messages, tools.value(), &model, 0)
                .await
                .map_err(|message| RunError::Hook {
                    hook: "beforeLLM",
                    message,
                })?;
            if let Some(replaced) = over.messages {
                messages = message::from_values(replaced);
            }
            if let Some(replaced) = over.tools {
                tools = Rc::new(ToolList::new(replaced));
            }
        }
        let body = if anthropic {
            request.anthropic_body(&model, &system, tools.has_tools())
        } else {
            request.openai_body(&model, tools.has_tools())
        };
        let llm = Llm {
            config: self.config.clone(),
            dialect,
            http: self.http.clone(),
            hooks: self.hooks.clone(),
            clock: self.clock.clone(),
            telemetry: self.telemetry.clone(),
            requests: self.requests.clone(),
        };
        let ctx = CallContext {
            signal,
            deadline,
            events: None,
            splice: None,
            keep_raw: true,
        };
        let completion = llm.call_with_body(body, &messages, &tools, ctx)?.await?;
        let raw = completion.raw.unwrap_or(Value::Null);
        if self.hooks.has_after_llm() {
            self.hooks
                .after_llm(&raw, &model, 0)
                .await
                .map_err(|message| RunError::Hook {
                    hook: "afterLLM",
                    message,
                })?;
        }
        let usage = completion.reply.usage;
        Ok(if anthropic {
            anthropic_result(raw, usage, &model)
        } else {
            openai_result(raw, usage, &model)
        })
    }
}
