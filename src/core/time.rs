//! RFC 3339 instants, read without a date library.

/// Milliseconds since the Unix epoch for an RFC 3339 timestamp such as
/// `2030-01-02T03:04:05.678Z` or `2030-01-02T03:04:05+02:00`; `None` when it is not one.
///
/// ```
/// # use toolnexus::core::time::rfc3339_ms;
/// assert_eq!(rfc3339_ms("1970-01-01T00:00:01Z"), Some(1000.0));
/// assert_eq!(rfc3339_ms("1970-01-01T02:00:00+02:00"), Some(0.0));
/// assert_eq!(rfc3339_ms("1970-01-01T00:00:00.5Z"), Some(500.0));
/// assert_eq!(rfc3339_ms("1970-01-01T00:00:00.1239Z"), Some(123.0)); // as Date.parse
/// assert_eq!(rfc3339_ms("tomorrow"), None);
/// ```
pub fn rfc3339_ms(text: &str) -> Option<f64> {
    let text = text.trim();
    let (date, rest) = text.split_once(['T', 't', ' '])?;
    let mut date_parts = date.split('-');
    let year: i64 = number(date_parts.next()?, 4)?;
    let month: i64 = number(date_parts.next()?, 2)?;
    let day: i64 = number(date_parts.next()?, 2)?;
    if date_parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock, offset_minutes) = split_offset(rest)?;
    let (hms, fraction) = match clock.split_once('.') {
        Some((hms, fraction)) => (hms, fraction),
        None => (clock, ""),
    };
    let mut hms_parts = hms.split(':');
    let hour: i64 = number(hms_parts.next()?, 2)?;
    let minute: i64 = number(hms_parts.next()?, 2)?;
    let second: i64 = number(hms_parts.next()?, 2)?;
    if hms_parts.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let millis = fraction_ms(fraction)?;
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds as f64 * 1000.0 + millis)
}

fn number(text: &str, digits: usize) -> Option<i64> {
    if text.len() != digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Whole milliseconds of a fraction of a second, digits past the third dropped, as JavaScript's
/// `Date.parse` reads them (`.1239` is 123 ms).
fn fraction_ms(fraction: &str) -> Option<f64> {
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0u32, |ms, digit| ms * 10 + u32::from(digit - b'0'));
    Some(f64::from(ms))
}

fn split_offset(rest: &str) -> Option<(&str, i64)> {
    if let Some(clock) = rest.strip_suffix(['Z', 'z']) {
        return Some((clock, 0));
    }
    let sign_at = rest.rfind(['+', '-'])?;
    let (clock, offset) = (rest.get(..sign_at)?, rest.get(sign_at..)?);
    let sign = if offset.starts_with('-') { -1 } else { 1 };
    let (hours, minutes) = offset.get(1..)?.split_once(':')?;
    Some((clock, sign * (number(hours, 2)? * 60 + number(minutes, 2)?)))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}
