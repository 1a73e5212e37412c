//! `core::json::value` behaves as serde_json's `Value`, `Map` (with `preserve_order`) and `Number`
//! do, for any content: the same accessors, lookups, order, equality, text and debug form.
//! serde_json's types are the reference here; the module no longer carries them.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::json_style;

use json_style::{any_value, number};
use proptest::prelude::*;
use toolnexus::core::json::value::{Map, Number, Value};

type TheirMap = serde_json::Map<String, serde_json::Value>;

/// One step on a map: insert, remove or retain, by keys from a small set so they collide.
#[derive(Debug, Clone)]
enum Step {
    Insert(String, i64),
    Remove(String),
    RetainEven,
}

fn key() -> impl Strategy<Value = String> {
    "[a-e]{1,2}"
}

/// Keys from 140, so a map grows well past the size it scans.
fn many_keys() -> impl Strategy<Value = String> {
    prop_oneof!["[a-e]{1,2}", "k[0-9]{1,2}"]
}

fn many_steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        8 => (many_keys(), any::<i64>()).prop_map(|(k, v)| Step::Insert(k, v)),
        2 => many_keys().prop_map(Step::Remove),
        1 => Just(Step::RetainEven),
    ];
    prop::collection::vec(step, 0..300)
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (key(), any::<i64>()).prop_map(|(k, v)| Step::Insert(k, v)),
        2 => key().prop_map(Step::Remove),
        1 => Just(Step::RetainEven),
    ]
}

fn even(v: i64) -> bool {
    v % 2 == 0
}

fn same_map(ours: &Map, theirs: &TheirMap) -> Result<(), TestCaseError> {
    prop_assert_eq!(ours.len(), theirs.len());
    prop_assert_eq!(ours.is_empty(), theirs.is_empty());
    let our_pairs: Vec<(String, Value)> =
        ours.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let their_pairs: Vec<(String, Value)> = theirs
        .iter()
        .map(|(k, v)| (k.clone(), Value::from(v.clone())))
        .collect();
    prop_assert_eq!(our_pairs, their_pairs);
    for k in ["a", "b", "c", "aa", "zz"] {
        prop_assert_eq!(ours.contains_key(k), theirs.contains_key(k));
        prop_assert_eq!(
            ours.get(k).cloned(),
            theirs.get(k).cloned().map(Value::from)
        );
    }
    Ok(())
}

/// Takes `steps` on both maps, checking them the same after each.
fn apply(ours: &mut Map, theirs: &mut TheirMap, steps: Vec<Step>) -> Result<(), TestCaseError> {
    for step in steps {
        match step {
            Step::Insert(k, v) => {
                let old = ours.insert(k.clone(), Value::from(v));
                prop_assert_eq!(
                    old,
                    theirs
                        .insert(k, serde_json::Value::from(v))
                        .map(Value::from)
                );
            }
            Step::Remove(k) => {
                prop_assert_eq!(ours.remove(&k), theirs.shift_remove(&k).map(Value::from));
            }
            Step::RetainEven => {
                ours.retain(|_, v| v.as_i64().is_some_and(even));
                theirs.retain(|_, v| v.as_i64().is_some_and(even));
            }
        }
        same_map(ours, theirs)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_map_changes_as_serde_jsons_does(steps in prop::collection::vec(step(), 0..60)) {
        apply(&mut Map::new(), &mut TheirMap::new(), steps)?;
    }

    /// Past the size a map scans, through its index: changed, copied and changed again.
    #[test]
    fn a_large_map_changes_as_serde_jsons_does(steps in many_steps(), more in many_steps()) {
        let (mut ours, mut theirs) = (Map::with_capacity(steps.len() / 4), TheirMap::new());
        apply(&mut ours, &mut theirs, steps)?;
        let (mut copy, mut their_copy) = (ours.clone(), theirs.clone());
        same_map(&copy, &theirs)?;
        apply(&mut copy, &mut their_copy, more)?;
        same_map(&ours, &theirs)?;
    }

    /// Up to 60 entries, past the size where `from_entries` sorts instead of scanning.
    #[test]
    fn entries_made_a_map_at_once_are_entries_inserted_one_by_one(
        pairs in prop::collection::vec((key(), any::<i64>()), 0..60)
    ) {
        let entries: Vec<(String, Value)> = pairs.iter().map(|(k, v)| (k.clone(), Value::from(*v))).collect();
        let at_once = Map::from_entries(entries.clone());
        let entries_again = entries.clone();
        let mut one_by_one = Map::new();
        for (k, v) in entries {
            one_by_one.insert(k, v);
        }
        let order = |m: &Map| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
        prop_assert_eq!(order(&at_once), order(&one_by_one));
        let collected: Map = entries_again.into_iter().collect();
        prop_assert_eq!(order(&collected), order(&one_by_one));
        let theirs: TheirMap = pairs.into_iter().map(|(k, v)| (k, serde_json::Value::from(v))).collect();
        same_map(&at_once, &theirs)?;
    }

    #[test]
    fn a_value_reads_as_serde_jsons_does(value in any_value()) {
        let theirs = serde_json::Value::from(value.clone());
        prop_assert_eq!(value.to_string(), theirs.to_string());
        prop_assert_eq!(format!("{value:?}"), format!("{theirs:?}"));
        prop_assert_eq!(value.as_str(), theirs.as_str());
        prop_assert_eq!(value.as_bool(), theirs.as_bool());
        prop_assert_eq!(value.as_f64(), theirs.as_f64());
        prop_assert_eq!(value.as_i64(), theirs.as_i64());
        prop_assert_eq!(value.as_u64(), theirs.as_u64());
        prop_assert_eq!(value.is_null(), theirs.is_null());
        prop_assert_eq!(value.is_boolean(), theirs.is_boolean());
        prop_assert_eq!(value.is_number(), theirs.is_number());
        prop_assert_eq!(value.is_i64(), theirs.is_i64());
        prop_assert_eq!(value.is_u64(), theirs.is_u64());
        prop_assert_eq!(value.is_f64(), theirs.is_f64());
        prop_assert_eq!(value.is_string(), theirs.is_string());
        prop_assert_eq!(value.is_array(), theirs.is_array());
        prop_assert_eq!(value.is_object(), theirs.is_object());
        prop_assert_eq!(value.as_array().map(Vec::len), theirs.as_array().map(Vec::len));
        prop_assert_eq!(value.as_object().map(Map::len), theirs.as_object().map(TheirMap::len));
        for k in ["", "a", "b", "\"", "é"] {
            prop_assert_eq!(value.get(k).cloned(), theirs.get(k).cloned().map(Value::from));
            prop_assert_eq!(&value[k], &theirs[k]);
        }
        for i in 0..3usize {
            prop_assert_eq!(value.get(i).cloned(), theirs.get(i).cloned().map(Value::from));
            prop_assert_eq!(&value[i], &theirs[i]);
        }
        // Through serde both ways: serde_json writes and reads the crate's type as its own.
        prop_assert_eq!(serde_json::to_string(&value).unwrap(), serde_json::to_string(&theirs).unwrap());
        // (serde_json's float reading is not always exact, so the reference is its own value.)
        let text = theirs.to_string();
        let read: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(read, serde_json::from_str::<serde_json::Value>(&text).unwrap());
    }

    #[test]
    fn values_are_equal_when_serde_jsons_are(a in any_value(), b in any_value()) {
        let (ta, tb) = (serde_json::Value::from(a.clone()), serde_json::Value::from(b.clone()));
        prop_assert_eq!(a == b, ta == tb);
        prop_assert!(a == a.clone());
    }

    #[test]
    fn a_number_converts_as_serde_jsons_does(n in number()) {
        let theirs = serde_json::Number::from(n);
        prop_assert_eq!(n.as_f64(), theirs.as_f64());
        prop_assert_eq!(n.as_i64(), theirs.as_i64());
        prop_assert_eq!(n.as_u64(), theirs.as_u64());
        prop_assert_eq!(n.as_i128(), theirs.as_i128());
        prop_assert_eq!((n.is_i64(), n.is_u64(), n.is_f64()), (theirs.is_i64(), theirs.is_u64(), theirs.is_f64()));
        prop_assert_eq!(n.to_string(), theirs.to_string());
        prop_assert_eq!(format!("{n:?}"), format!("{theirs:?}"));
    }

    #[test]
    fn integers_and_floats_convert_as_serde_jsons_do(i in any::<i64>(), u in any::<u64>(), f in any::<f64>()) {
        prop_assert_eq!(Value::from(i), serde_json::Value::from(i));
        prop_assert_eq!(Value::from(u), serde_json::Value::from(u));
        prop_assert_eq!(Value::from(f), serde_json::Value::from(f));
        let (ours, theirs) = (Value::from(i), serde_json::Value::from(i));
        prop_assert_eq!(ours == i, theirs == i);
        let (ours, theirs) = (Value::from(f), serde_json::Value::from(f));
        prop_assert_eq!(ours == f, theirs == f);
    }
}

#[test]
fn objects_are_equal_in_any_order_and_lists_are_not() {
    let a = toolnexus::json!({"a": 1, "b": [1, 2]});
    let b = toolnexus::json!({"b": [1, 2], "a": 1});
    assert_eq!(a, b);
    assert_ne!(toolnexus::json!([1, 2]), toolnexus::json!([2, 1]));
    assert_ne!(toolnexus::json!({"a": 1}), toolnexus::json!({"a": 1.0}));
}

#[test]
fn a_missing_key_or_index_reads_as_null() {
    let v = toolnexus::json!({"a": [1]});
    assert!(v["b"].is_null());
    assert!(v["a"][3].is_null());
    assert!(v[0].is_null());
    assert_eq!(v["a"][0], 1);
}

#[test]
fn a_large_object_with_repeated_keys_keeps_first_places_and_last_values() {
    let mut entries: Vec<(String, Value)> = (0..1000)
        .map(|i| (format!("k{i}"), Value::from(i)))
        .collect();
    entries.push(("k5".into(), Value::from("last")));
    entries.push(("k0".into(), Value::from("last")));
    let map = Map::from_entries(entries);
    assert_eq!(map.len(), 1000);
    let keys: Vec<&String> = map.keys().take(6).collect();
    assert_eq!(keys, ["k0", "k1", "k2", "k3", "k4", "k5"]);
    assert_eq!(map["k0"], "last");
    assert_eq!(map["k5"], "last");
    assert_eq!(map["k999"], 999);
}

/// The least of 5 runs of `work`, in seconds.
fn least_time(mut work: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            work();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Everything a large map does by key: built key by key and by `extend`, every key read,
/// compared with its reverse.
fn work_by_key(n: usize) {
    let keys: Vec<String> = (0..n).map(|i| format!("key_{i:05}")).collect();
    let mut map = Map::new();
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(map.insert(key.clone(), Value::from(i)), None);
    }
    let mut extended = Map::new();
    extended.extend(keys.iter().rev().map(|k| (k.clone(), Value::from(0))));
    assert!(keys
        .iter()
        .all(|k| map.contains_key(k) && extended.get(k).is_some()));
    let reversed: Map = map
        .iter()
        .rev()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    assert!(reversed == map);
}

#[test]
fn a_large_map_costs_n_not_n_squared() {
    // 8 times the keys: about 8 times the time (64 by a scan per key).
    let small = least_time(|| work_by_key(2_000));
    let large = least_time(|| work_by_key(16_000));
    assert!(
        large <= 24.0 * small,
        "{large:.4} s for 16,000 keys, {small:.4} s for 2,000"
    );
}

#[test]
fn non_finite_floats_are_not_numbers() {
    assert!(Number::from_f64(f64::INFINITY).is_none());
    assert!(Value::from(f64::NAN).is_null());
}
