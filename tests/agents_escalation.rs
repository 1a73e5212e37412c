//! Escalation in the agent runtime (SPEC §7D, the §10 agent addendum) on the project's own
//! data: the nearest interpreter answers a suspension, one hop at a time, the Answer resuming
//! the suspended chain inline; a refusal leaves nothing parked; an agent used as a tool in a
//! classic run suspends with the inner request and resumes with the Answer.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agents::*;
use common::chain::*;
use toolnexus::core::agents::data::TaskStatus;
use toolnexus::core::agents::runtime::WaitOptions;
use toolnexus::core::json::value::Value;
use toolnexus::json;

#[test]
fn a_grandchilds_request_climbs_one_hop_at_a_time_to_the_nearest_interpreter() {
    let chain = Chain::new();
    let approver = Approver::new(true);
    let bed = chain.bed(|d| with_wait_for(d, "lead", approver.clone()), None);
    let (_, r) = run(&bed, "lead");
    assert_eq!(
        (r.status, r.text.as_str()),
        (TaskStatus::Done, "lead: mid: leaf: secret-token")
    );
    // The lead saw the inner tool's own request, its path stamped by the relaying level.
    let asked = approver.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].kind.as_str(), asked[0].prompt.as_str()),
        ("approval", "approve secret access?")
    );
    let path = asked[0].data.as_ref().unwrap()["path"].clone();
    assert_eq!(path, json!(["root", "lead.1", "mid.1"]));
    let trace = bed.rt.trace();
    assert!(
        trace.contains(
            &"root/lead.1/mid.1: escalate → root/lead.1 answers (\"nearest interpreter\")"
                .to_owned()
        ),
        "{trace:#?}"
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1/leaf.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→running",
            "running→idle",
            "idle→closed"
        ]
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→running",
            "running→idle",
            "idle→closed"
        ]
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1"),
        ["idle→running", "running→idle"]
    );
    // One approved run of the tool; one spawn per level.
    assert_eq!(chain.approved.get(), 1);
    assert_eq!(spawns(&bed.rt), 3);
}

#[test]
fn the_nearest_interpreter_wins_over_a_farther_one() {
    let chain = Chain::new();
    let (near, far) = (Approver::new(true), Approver::new(true));
    let bed = chain.bed(
        |d| {
            with_wait_for(d, "lead", far.clone());
            with_wait_for(d, "mid", near.clone());
        },
        None,
    );
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done);
    assert_eq!(
        (near.asked.borrow().len(), far.asked.borrow().len()),
        (1, 0)
    );
    assert!(bed.rt.trace().iter().any(|l| l == "root/lead.1/mid.1/leaf.1: escalate → root/lead.1/mid.1 answers (\"nearest interpreter\")"));
}

#[test]
fn an_agent_with_its_own_wait_for_answers_its_own_tools() {
    let chain = Chain::new();
    let own = Approver::new(true);
    let bed = chain.bed(|d| with_wait_for(d, "leaf", own.clone()), None);
    let (_, r) = run(&bed, "leaf");
    assert_eq!(
        (r.status, r.text.as_str()),
        (TaskStatus::Done, "leaf: secret-token")
    );
    assert!(bed
        .rt
        .trace()
        .iter()
        .any(|l| l == "root/leaf.1: escalate → root/leaf.1 answers (\"nearest interpreter\")"));
    assert_eq!(
        transitions(&bed.rt, "root/leaf.1"),
        ["idle→running", "running→idle"]
    );
}

#[test]
fn the_runtimes_wait_for_is_the_last_hop() {
    let chain = Chain::new();
    let runtime = Approver::new(true);
    let bed = chain.bed(|_| {}, Some(runtime.clone()));
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done, "{r:?}");
    assert_eq!(runtime.asked.borrow().len(), 1);
    assert!(bed
        .rt
        .trace()
        .iter()
        .any(|l| l == "root/lead.1/mid.1: escalate → root answers (\"nearest interpreter\")"));
}

#[test]
fn a_declining_interpreter_gives_the_parent_the_declined_result() {
    let chain = Chain::new();
    let no = Approver::new(false);
    let bed = chain.bed(|d| with_wait_for(d, "mid", no.clone()), None);
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done);
    assert_eq!(
        r.text,
        "lead: mid: declined/expired: approve secret access?"
    );
    assert_eq!(chain.approved.get(), 0);
    // Nothing below the refusing level stays parked: the leaf is told too.
    assert!(bed.rt.suspended().is_empty());
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1/leaf.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→idle",
            "idle→closed"
        ]
    );
    let leaf = bed.rt.find("root/lead.1/mid.1/leaf.1").unwrap();
    let r = bed.block_on(bed.rt.wait(leaf, WaitOptions::default()));
    assert_eq!(r.text, "declined/expired: approve secret access?");
    assert!(bed.rt.trace().contains(
        &"root/lead.1/mid.1/leaf.1: suspended→idle (Answer ok=false, declined)".to_owned()
    ));
}

#[test]
fn an_inline_resume_does_not_run_completed_tools_again_either() {
    let (mut defs, tools, models, notes, approved) = noting_leaf();
    with_wait_for(&mut defs, "lead", Approver::new(true));
    let bed = Bed::new(defs, &tools, models, |_| {});
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.text, "lead: noted(x) + secret-token");
    assert_eq!((notes.get(), approved.get()), (1, 1));
}

#[test]
fn an_approval_deep_inside_an_agent_tool_reaches_the_classic_clients_wait_for() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (mut client, tool) = classic(&chain, &bed);
    let approver = Approver::new(true);
    client.wait_for = Some(approver.clone());
    let r = bed
        .block_on(client.run(run_input(vec![tool], "do it")))
        .unwrap();
    assert_eq!(r.text, "classic: lead: mid: leaf: secret-token");
    // The classic host saw the inner tool's own request, and approved it once.
    let asked = approver.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].prompt, "approve secret access?");
    // With the chain down to the asking handle and the inner call, for the host to show.
    assert_eq!(
        Value::Object(asked[0].data.clone().unwrap()),
        inner_request_data()
    );
    assert_eq!(chain.approved.get(), 1);
}

/// What a classic host sees of the leaf's request, three agents down.
fn inner_request_data() -> Value {
    json!({
        "path": ["root", "lead.1", "mid.1", "leaf.1"],
        "haltedCall": {"handle": "root/lead.1/mid.1/leaf.1", "tool": "check_secret", "args": {}}
    })
}

#[test]
fn a_classic_durable_halt_inside_an_agent_tool_resumes_the_parked_run() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (client, tool) = classic(&chain, &bed);
    let halted = bed
        .block_on(client.run(run_input(vec![tool.clone()], "do it")))
        .unwrap();
    let pending = halted.pending.clone().unwrap();
    assert_eq!(pending.prompt, "approve secret access?");
    assert_eq!(
        Value::Object(pending.data.clone().unwrap()),
        inner_request_data()
    );
    // The classic client's durable resume retries the agent tool with the Answer.
    let mut input = run_input(vec![tool.clone()], "");
    input.history = halted.messages.clone();
    input.resume = Some(toolnexus::core::client::run::Resume {
        pending: pending.clone(),
        answer: json!({"id": pending.id.clone(), "ok": true}),
    });
    let done = bed.block_on(client.run(input)).unwrap();
    assert_eq!(done.text, "classic: lead: mid: leaf: secret-token");
    assert_eq!(chain.approved.get(), 1);
    // A retry whose run is gone is an error result the model reads, not a fresh run.
    let ctx = toolnexus::core::tool::Context {
        answer: Some(toolnexus::core::types::Answer {
            id: pending.id.clone(),
            ok: true,
            data: None,
            reason: None,
        }),
        ..Default::default()
    };
    let r = bed.block_on(tool.execute(json!({"prompt": "go"}), ctx));
    assert!(r.is_error);
    assert_eq!(
        r.output,
        format!("no run of agent \"lead\" waits on request \"{}\" (it ended, or ran in another process)", pending.id)
    );
}
