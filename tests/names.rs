//! `core::names::Names` answers as a `BTreeMap` would, for any sequence of inserts and lookups.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use std::collections::BTreeMap;
use toolnexus::core::names::Names;

proptest! {
    #[test]
    fn names_answer_as_a_map_does(ops in prop::collection::vec(("[a-d]{0,3}", any::<u8>(), any::<bool>()), 0..60)) {
        let (mut ours, mut theirs) = (Names::default(), BTreeMap::new());
        for (key, value, insert) in ops {
            if insert {
                prop_assert_eq!(ours.insert(key.clone(), value), theirs.insert(key.clone(), value));
            }
            prop_assert_eq!(ours.get(&key), theirs.get(&key));
            prop_assert_eq!(ours.contains_key(&key), theirs.contains_key(&key));
        }
    }
}
