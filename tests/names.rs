//! `core::names::Names` answers as a `BTreeMap` would, for any sequence of inserts, removals,
//! changes and lookups, and lists its keys in the same order.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use std::collections::BTreeMap;
use toolnexus::core::names::Names;

#[derive(Debug, Clone)]
enum Op {
    Insert(String, u8),
    Remove(String),
    Bump(String),
    Retain(u8),
}

fn op() -> impl Strategy<Value = Op> {
    let key = "[a-d]{0,3}";
    prop_oneof![
        4 => (key, any::<u8>()).prop_map(|(k, v)| Op::Insert(k, v)),
        1 => key.prop_map(Op::Remove),
        1 => key.prop_map(Op::Bump),
        1 => any::<u8>().prop_map(Op::Retain),
    ]
}

proptest! {
    #[test]
    fn names_answer_as_a_map_does(ops in prop::collection::vec(op(), 0..60), probe in "[a-d]{0,3}") {
        let (mut ours, mut theirs) = (Names::default(), BTreeMap::new());
        for op in ops {
            match op {
                Op::Insert(k, v) => prop_assert_eq!(ours.insert(k.clone(), v), theirs.insert(k, v)),
                Op::Remove(k) => prop_assert_eq!(ours.remove(&k), theirs.remove(&k)),
                Op::Bump(k) => {
                    if let Some(v) = ours.get_mut(&k) {
                        *v = v.wrapping_add(1);
                    }
                    if let Some(v) = theirs.get_mut(&k) {
                        *v = v.wrapping_add(1);
                    }
                }
                Op::Retain(limit) => {
                    ours.retain(|_, v| *v < limit);
                    theirs.retain(|_, v| *v < limit);
                }
            }
            prop_assert_eq!(ours.get(&probe), theirs.get(&probe));
            prop_assert_eq!(ours.contains_key(&probe), theirs.contains_key(&probe));
        }
        prop_assert_eq!(ours.keys().collect::<Vec<_>>(), theirs.keys().collect::<Vec<_>>());
        prop_assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
    }
}

proptest! {
    #[test]
    fn id_keys_answer_as_a_map_does(ids in prop::collection::vec((0u32..40, any::<bool>()), 0..60)) {
        // Mostly rising ids (appended), some out of order and some removed.
        let (mut ours, mut theirs) = (Names::<u32, u32>::default(), BTreeMap::new());
        for (i, (id, remove)) in ids.into_iter().enumerate() {
            let id = if i % 3 == 0 { id } else { 100 + i as u32 };
            if remove {
                prop_assert_eq!(ours.remove(&id), theirs.remove(&id));
            } else {
                prop_assert_eq!(ours.insert(id, i as u32), theirs.insert(id, i as u32));
            }
            prop_assert_eq!(ours.get(&id), theirs.get(&id));
        }
        prop_assert_eq!(ours.iter().collect::<Vec<_>>(), theirs.iter().collect::<Vec<_>>());
    }
}
