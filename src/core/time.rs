//! Instants written in the ECMAScript Date Time String Format (ISO 8601's extended format, the
//! strings `Date.prototype.toISOString` writes), read as JavaScript's `Date.parse` (V8) reads
//! them. The format is read here, the same in every runtime: it is what a request's
//! `expiresAt` must be. Turning a date-time without an offset (local time) into an instant
//! needs the host's time zone, so the core leaves that to the host
//! ([`Clock::date_ms`](crate::core::host::Clock::date_ms)); [`iso_ms`] is what a host without
//! one reads.

/// A date-time in the ECMAScript Date Time String Format, read into its fields.
///
/// The forms: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (or an expanded year `±YYYYYY` in place of
/// `YYYY`; `-000000` is not one), optionally followed by `THH:mm`, `THH:mm:ss` or
/// `THH:mm:ss.s…` (one or more fraction digits, the first three read, as V8 does) and an
/// offset `Z`, `±HH:mm` or `±HHmm`. As in V8, `t`, `z` and a space in place of `T` are read
/// too, except a space after a year from 0000 to 0099: V8 reads the space forms with its legacy
/// reader, which takes such a year for a two-digit one (`0049-01-01 00:00Z` is 2049 to it), so
/// the instant would not be the one written. Ranges are V8's: month 01-12, day 01-31 (a day past the month's end runs on into the
/// next month: `2030-02-30` is March 2nd), hour 00-24 (24 only as `24:00`, `24:00:00` or
/// `24:00:00.000…`, the next day's midnight), minute and second 00-59 (no leap second `:60`),
/// offset hour 00-23 and minute 00-59. A date-only form is UTC; a date-time without an offset
/// is local time.
///
/// ```
/// # use toolnexus::core::time::DateTime;
/// let t = DateTime::parse("2030-01-02T03:04:05.6789+05:30").unwrap();
/// assert_eq!((t.year, t.month, t.day, t.hour, t.minute, t.second), (2030, 1, 2, 3, 4, 5));
/// assert_eq!((t.millisecond, t.offset_minutes), (678, Some(330)));
/// assert_eq!(DateTime::parse("2030").unwrap().offset_minutes, Some(0)); // date-only: UTC
/// assert_eq!(DateTime::parse("2030-01-01T00:00").unwrap().offset_minutes, None); // local
/// for bad in ["2030-13-01", "2030-01-32", "2030-01-01T23:59:60Z", "2030-01-01T24:00:01Z",
///     "2030-01-01T00:00+25:00", "2030-01-01Z", "2030-1-1", " 2030-01-01", "-000000-01-01",
///     "0049-01-01 00:00Z"] {
///     assert_eq!(DateTime::parse(bad), None, "{bad}");
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// The year, `-999999..=999999`.
    pub year: i32,
    /// `1..=12` (January when the text gives no month).
    pub month: u8,
    /// `1..=31` (the first when the text gives no day).
    pub day: u8,
    /// `0..=24` (24 only with every smaller field zero).
    pub hour: u8,
    /// `0..=59`.
    pub minute: u8,
    /// `0..=59`.
    pub second: u8,
    /// `0..=999`: the first three digits of the fraction, the rest dropped.
    pub millisecond: u16,
    /// Minutes east of UTC; `None` for a date-time without an offset, which is local time (a
    /// date-only form is UTC: `Some(0)`).
    pub offset_minutes: Option<i16>,
}

/// The largest distance from the epoch an ECMAScript time value may have (`TimeClip`).
const MAX_MS: f64 = 8.64e15;

impl DateTime {
    /// Reads `text`, the whole of it (no surrounding spaces); `None` when it is not in the
    /// format or a field is out of range.
    pub fn parse(text: &str) -> Option<DateTime> {
        let mut at = Cursor(text.as_bytes());
        let year = match at.peek() {
            Some(sign @ (b'+' | b'-')) => {
                at.skip();
                let year = i32::try_from(at.digits(6)?).ok()?;
                match (sign, year) {
                    (b'-', 0) => return None,
                    (b'-', _) => -year,
                    _ => year,
                }
            }
            _ => i32::try_from(at.digits(4)?).ok()?,
        };
        let mut parsed = DateTime {
            year,
            month: 1,
            day: 1,
            hour: 0,
            minute: 0,
            second: 0,
            millisecond: 0,
            offset_minutes: Some(0),
        };
        if at.eat(b'-') {
            parsed.month = at.two_digits(1, 12)?;
            if at.eat(b'-') {
                parsed.day = at.two_digits(1, 31)?;
            }
        }
        if at.0.is_empty() {
            return Some(parsed);
        }
        match at.peek() {
            Some(b'T' | b't') => at.skip(),
            Some(b' ') if !(0..=99).contains(&year) => at.skip(),
            _ => return None,
        }
        parsed.hour = at.two_digits(0, 24)?;
        at.eat(b':').then_some(())?;
        parsed.minute = at.two_digits(0, 59)?;
        let mut fraction_is_zero = true;
        if at.eat(b':') {
            parsed.second = at.two_digits(0, 59)?;
            if at.eat(b'.') {
                let digits = at.take_digits();
                if digits.is_empty() {
                    return None;
                }
                fraction_is_zero = digits.iter().all(|&d| d == b'0');
                parsed.millisecond = digits
                    .iter()
                    .chain(b"00")
                    .take(3)
                    .fold(0, |ms, &d| ms * 10 + u16::from(d - b'0'));
            }
        }
        if parsed.hour == 24 && (parsed.minute, parsed.second, fraction_is_zero) != (0, 0, true) {
            return None;
        }
        parsed.offset_minutes = match at.peek() {
            None => None,
            Some(b'Z' | b'z') => {
                at.skip();
                Some(0)
            }
            Some(sign @ (b'+' | b'-')) => {
                at.skip();
                let hours = i16::from(at.two_digits(0, 23)?);
                at.eat(b':');
                let minutes = i16::from(at.two_digits(0, 59)?);
                let minutes = hours * 60 + minutes;
                Some(if sign == b'-' { -minutes } else { minutes })
            }
            Some(_) => return None,
        };
        at.0.is_empty().then_some(parsed)
    }

    /// Milliseconds since the epoch of the fields as written, as if they were UTC (the offset
    /// not applied).
    ///
    /// ```
    /// # use toolnexus::core::time::DateTime;
    /// assert_eq!(DateTime::parse("1970-01-02T00:00:00.5+01:00").unwrap().wall_ms(), 86_400_500.0);
    /// ```
    pub fn wall_ms(&self) -> f64 {
        let days = days_from_civil(
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        );
        let seconds = days * 86_400
            + i64::from(self.hour) * 3_600
            + i64::from(self.minute) * 60
            + i64::from(self.second);
        (seconds * 1000 + i64::from(self.millisecond)) as f64
    }

    /// Milliseconds since the Unix epoch: the text's own offset applied, or for a local time
    /// `local_offset_ms` (the host's offset from UTC at that time, east positive; a zone's
    /// historic mean time may have seconds). `None` beyond ECMAScript's range of ±8.64e15 ms
    /// (±100,000,000 days), as `Date.parse`.
    ///
    /// ```
    /// # use toolnexus::core::time::DateTime;
    /// let local = DateTime::parse("1970-01-01T02:00").unwrap();
    /// assert_eq!(local.epoch_ms(7_200_000.0), Some(0.0)); // 02:00 at UTC+2 is midnight UTC
    /// assert_eq!(DateTime::parse("+275760-09-13").unwrap().epoch_ms(0.0), Some(8.64e15));
    /// assert_eq!(DateTime::parse("+275760-09-13T00:00:00.001Z").unwrap().epoch_ms(0.0), None);
    /// ```
    pub fn epoch_ms(&self, local_offset_ms: f64) -> Option<f64> {
        let offset = self
            .offset_minutes
            .map_or(local_offset_ms, |minutes| f64::from(minutes) * 60_000.0);
        let ms = self.wall_ms() - offset;
        (ms.abs() <= MAX_MS).then_some(ms)
    }
}

/// Milliseconds since the Unix epoch of a [`DateTime`] text, a date-time without an offset
/// read as UTC (what a host that keeps no time zone reads; the JS host reads it in local
/// time, as `Date.parse` does); `None` when it is not one.
///
/// ```
/// # use toolnexus::core::time::iso_ms;
/// assert_eq!(iso_ms("1970-01-01T00:00:01Z"), Some(1000.0));
/// assert_eq!(iso_ms("1970-01-01T02:00:00+02:00"), Some(0.0));
/// assert_eq!(iso_ms("1970-01-01T00:00:00.5Z"), Some(500.0));
/// assert_eq!(iso_ms("1970-01-01T00:00:00.1239Z"), Some(123.0)); // as Date.parse
/// assert_eq!(iso_ms("1970-01-02"), Some(86_400_000.0));
/// assert_eq!(iso_ms("1970-01-01T00:01"), Some(60_000.0));
/// assert_eq!(iso_ms("tomorrow"), None);
/// ```
pub fn iso_ms(text: &str) -> Option<f64> {
    DateTime::parse(text)?.epoch_ms(0.0)
}

/// Reads bytes from the front of a text.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.0.first().copied()
    }

    fn skip(&mut self) {
        self.0 = self.0.get(1..).unwrap_or_default();
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.skip();
        }
        found
    }

    /// The run of ASCII digits at the front (possibly empty).
    fn take_digits(&mut self) -> &[u8] {
        let end = self
            .0
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(self.0.len());
        let (digits, rest) = self.0.split_at(end);
        self.0 = rest;
        digits
    }

    /// The next `count` bytes, all digits, as a number (what follows them is the caller's to
    /// check: a longer run of digits is never what the format has next).
    fn digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.0.get(..count)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.0 = self.0.get(count..).unwrap_or_default();
        Some(digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')))
    }

    /// Exactly two digits, within `min..=max`.
    fn two_digits(&mut self, min: u8, max: u8) -> Option<u8> {
        let n = u8::try_from(self.digits(2)?).ok()?;
        (min..=max).contains(&n).then_some(n)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm); a day
/// past the month's end runs on into the next month.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}
