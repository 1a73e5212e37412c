//! A JSON number as the parser read it: an unsigned integer, a negative integer, or a finite
//! float (serde_json's `Number`, with its conversions and its equality).

use std::fmt;

/// A JSON number: an integer kept exact, or a finite float.
///
/// ```
/// use toolnexus::core::json::value::Number;
/// assert_eq!(Number::from(7u64).as_i64(), Some(7));
/// assert_eq!(Number::from(-2i64).as_u64(), None);
/// assert_eq!(Number::from_f64(1.5).and_then(|n| n.as_f64()), Some(1.5));
/// assert!(Number::from_f64(f64::NAN).is_none());
/// ```
#[derive(Clone, Copy, PartialEq)]
pub struct Number(Kind);

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Unsigned(u64),
    /// Always below zero.
    Negative(i64),
    /// Always finite.
    Float(f64),
}

impl Number {
    /// The number `f`, or `None` when it is infinite or NaN (JSON has no such numbers).
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(Kind::Float(f)))
    }

    /// The number as an `f64` (an integer rounded to the nearest float).
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            Kind::Unsigned(u) => u as f64,
            Kind::Negative(i) => i as f64,
            Kind::Float(f) => f,
        })
    }

    /// The number as an `i64` when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Kind::Unsigned(u) => i64::try_from(u).ok(),
            Kind::Negative(i) => Some(i),
            Kind::Float(_) => None,
        }
    }

    /// The number as a `u64` when it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            Kind::Unsigned(u) => Some(u),
            _ => None,
        }
    }

    /// The number as an `i128` when it is an integer.
    pub fn as_i128(&self) -> Option<i128> {
        match self.0 {
            Kind::Unsigned(u) => Some(i128::from(u)),
            Kind::Negative(i) => Some(i128::from(i)),
            Kind::Float(_) => None,
        }
    }

    /// Whether [`as_i64`](Number::as_i64) gives a value.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether [`as_u64`](Number::as_u64) gives a value.
    pub fn is_u64(&self) -> bool {
        matches!(self.0, Kind::Unsigned(_))
    }

    /// Whether the number was read or made as a float.
    pub fn is_f64(&self) -> bool {
        matches!(self.0, Kind::Float(_))
    }
}

impl From<u64> for Number {
    fn from(u: u64) -> Number {
        Number(Kind::Unsigned(u))
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        match u64::try_from(i) {
            Ok(u) => Number(Kind::Unsigned(u)),
            Err(_) => Number(Kind::Negative(i)),
        }
    }
}

macro_rules! number_from_small {
    ($($t:ty => $wide:ty),*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                Number::from(n as $wide)
            }
        }
    )*};
}
number_from_small!(u8 => u64, u16 => u64, u32 => u64, usize => u64, i8 => i64, i16 => i64, i32 => i64, isize => i64);

impl fmt::Display for Number {
    /// The number's JSON text: `42`, `-7`, `1.5`, `1e300`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::new();
        crate::core::json::text::write_number(&mut out, self);
        f.write_str(&crate::core::json::text::buffer_text(out))
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}
