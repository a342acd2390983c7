//! W3C Datetime, the date format of `<lastmod>` (and of news and video dates).
//!
//! The profile (<https://www.w3.org/TR/NOTE-datetime>) allows exactly six forms:
//! `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`, `YYYY-MM-DDThh:mm:ssTZD` and
//! `YYYY-MM-DDThh:mm:ss.sTZD`, where TZD is `Z` or `+hh:mm` / `-hh:mm` and is required whenever a
//! time is given. The shape is checked by hand (jiff's parsers accept more than the profile, and
//! none reads `YYYY` or `YYYY-MM`); jiff then checks the calendar (no 30 February) and converts.

use jiff::civil::{Date, DateTime};
use jiff::tz::Offset;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

/// A value in one of the six W3C Datetime forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "form")]
pub enum W3cDatetime {
    /// `YYYY`.
    Year { year: i16 },
    /// `YYYY-MM`.
    YearMonth { year: i16, month: i8 },
    /// `YYYY-MM-DD`.
    Date { date: Date },
    /// A date with a time and a zone designator (minutes, seconds or fractions).
    DateTime {
        /// The instant the value names.
        timestamp: Timestamp,
        /// The zone designator as written, in seconds east of UTC (`Z` is 0).
        offset_seconds: i32,
    },
}

impl W3cDatetime {
    /// The earliest instant the value can mean: the start of the year, month or day in UTC for
    /// the date-only forms. Comparisons against a check time use this, with a day of slack for
    /// the unknown zone of date-only values.
    pub fn earliest(&self) -> Timestamp {
        let start_of = |year: i16, month: i8, day: i8| {
            Date::new(year, month, day)
                .ok()
                .and_then(|date| {
                    Offset::UTC
                        .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
                        .ok()
                })
                .unwrap_or(Timestamp::MIN)
        };
        match *self {
            W3cDatetime::Year { year } => start_of(year, 1, 1),
            W3cDatetime::YearMonth { year, month } => start_of(year, month, 1),
            W3cDatetime::Date { date } => start_of(date.year(), date.month(), date.day()),
            W3cDatetime::DateTime { timestamp, .. } => timestamp,
        }
    }
}

/// Parses one of the six W3C Datetime forms; `None` for anything else (surrounding whitespace
/// included: callers trim element text first).
///
/// ```
/// use crawlgate_sitemap::{parse_w3c_datetime, W3cDatetime};
/// assert_eq!(parse_w3c_datetime("2024"), Some(W3cDatetime::Year { year: 2024 }));
/// assert!(parse_w3c_datetime("2024-05-01T10:20+02:00").is_some());
/// assert!(parse_w3c_datetime("2024-05-01T10:20:00").is_none()); // a time needs a zone
/// assert!(parse_w3c_datetime("2024-02-30").is_none());
/// ```
pub fn parse_w3c_datetime(text: &str) -> Option<W3cDatetime> {
    let bytes = text.as_bytes();
    let year = i16::try_from(digits(bytes, 0, 4)?).ok()?;
    if bytes.len() == 4 {
        return Some(W3cDatetime::Year { year });
    }
    expect(bytes, 4, b'-')?;
    let month = small(digits(bytes, 5, 2)?)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    if bytes.len() == 7 {
        return Some(W3cDatetime::YearMonth { year, month });
    }
    expect(bytes, 7, b'-')?;
    let day = small(digits(bytes, 8, 2)?)?;
    if bytes.len() == 10 {
        let date = Date::new(year, month, day).ok()?;
        return Some(W3cDatetime::Date { date });
    }
    expect(bytes, 10, b'T')?;
    let hour = small(digits(bytes, 11, 2)?)?;
    expect(bytes, 13, b':')?;
    let minute = small(digits(bytes, 14, 2)?)?;
    let mut at = 16;
    let mut second = 0;
    let mut nanos = 0;
    if bytes.get(at) == Some(&b':') {
        second = small(digits(bytes, at + 1, 2)?)?;
        at += 3;
        if bytes.get(at) == Some(&b'.') {
            let (fraction, used) = fraction_nanos(bytes.get(at + 1..)?)?;
            nanos = fraction;
            at += 1 + used;
        }
    }
    let offset_seconds = zone_designator(bytes.get(at..)?)?;
    let civil = DateTime::new(year, month, day, hour, minute, second, nanos).ok()?;
    let offset = Offset::from_seconds(offset_seconds).ok()?;
    let timestamp = offset.to_timestamp(civil).ok()?;
    Some(W3cDatetime::DateTime {
        timestamp,
        offset_seconds,
    })
}

/// Parses an RFC 822/2822 date, the format of RSS `<pubDate>`.
pub fn parse_rfc2822(text: &str) -> Option<Timestamp> {
    static PARSER: jiff::fmt::rfc2822::DateTimeParser = jiff::fmt::rfc2822::DateTimeParser::new();
    PARSER.parse_timestamp(text).ok()
}

/// `timestamp` plus `days` whole days, saturating at the end of jiff's range.
pub(crate) fn plus_days(timestamp: Timestamp, days: i64) -> Timestamp {
    timestamp
        .checked_add(SignedDuration::from_hours(days.saturating_mul(24)))
        .unwrap_or(Timestamp::MAX)
}

/// The value of `count` ASCII digits at `start`, or `None` if any is missing or not a digit.
fn digits(bytes: &[u8], start: usize, count: usize) -> Option<u32> {
    let slice = bytes.get(start..start.checked_add(count)?)?;
    slice.iter().try_fold(0u32, |value, &byte| {
        byte.is_ascii_digit()
            .then(|| value * 10 + u32::from(byte - b'0'))
    })
}

fn small(value: u32) -> Option<i8> {
    i8::try_from(value).ok()
}

fn expect(bytes: &[u8], at: usize, wanted: u8) -> Option<()> {
    (bytes.get(at) == Some(&wanted)).then_some(())
}

/// Reads one or more fraction digits; digits past nanoseconds are accepted and dropped.
fn fraction_nanos(bytes: &[u8]) -> Option<(i32, usize)> {
    let used = bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if used == 0 {
        return None;
    }
    let mut nanos = 0i32;
    for place in 0..9 {
        let digit = bytes
            .get(place)
            .filter(|_| place < used)
            .map_or(0, |byte| i32::from(byte - b'0'));
        nanos = nanos * 10 + digit;
    }
    Some((nanos, used))
}

/// `Z`, `+hh:mm` or `-hh:mm`, and nothing after it.
fn zone_designator(bytes: &[u8]) -> Option<i32> {
    match bytes {
        [b'Z'] => Some(0),
        [sign @ (b'+' | b'-'), ..] if bytes.len() == 6 => {
            let hours = i32::try_from(digits(bytes, 1, 2)?).ok()?;
            expect(bytes, 3, b':')?;
            let minutes = i32::try_from(digits(bytes, 4, 2)?).ok()?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let seconds = hours * 3600 + minutes * 60;
            Some(if *sign == b'-' { -seconds } else { seconds })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_six_forms() {
        assert_eq!(
            parse_w3c_datetime("1997"),
            Some(W3cDatetime::Year { year: 1997 })
        );
        assert_eq!(
            parse_w3c_datetime("1997-07"),
            Some(W3cDatetime::YearMonth {
                year: 1997,
                month: 7
            })
        );
        assert_eq!(
            parse_w3c_datetime("1997-07-16"),
            Some(W3cDatetime::Date {
                date: jiff::civil::date(1997, 7, 16)
            })
        );
        let minutes = parse_w3c_datetime("1997-07-16T19:20+01:00").unwrap();
        assert_eq!(
            minutes.earliest(),
            "1997-07-16T18:20:00Z".parse::<Timestamp>().unwrap()
        );
        let seconds = parse_w3c_datetime("1997-07-16T19:20:30+01:00").unwrap();
        assert_eq!(
            seconds,
            W3cDatetime::DateTime {
                timestamp: "1997-07-16T18:20:30Z".parse().unwrap(),
                offset_seconds: 3600
            }
        );
        let fraction = parse_w3c_datetime("1997-07-16T19:20:30.45Z").unwrap();
        assert_eq!(
            fraction.earliest(),
            "1997-07-16T19:20:30.45Z".parse::<Timestamp>().unwrap()
        );
        let negative = parse_w3c_datetime("2005-01-01T00:00:00-05:30").unwrap();
        assert_eq!(
            negative.earliest(),
            "2005-01-01T05:30:00Z".parse::<Timestamp>().unwrap()
        );
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "",
            "97",
            "1997-7",
            "1997-13",
            "1997-00-10",
            "1997-02-30",
            "1997-07-16T19:20",        // time without zone
            "1997-07-16T19:20:30",     // time without zone
            "1997-07-16 19:20:30Z",    // space instead of T
            "1997-07-16T19Z",          // hour only
            "1997-07-16T25:00Z",       // no hour 25
            "1997-07-16T19:20:30.Z",   // empty fraction
            "1997-07-16T19:20+0100",   // offset without colon
            "1997-07-16T19:20+01:00 ", // trailing space
            "1997-07-16T19:20z",
            "16/07/1997",
            "Wed, 16 Jul 1997 19:20:30 GMT",
            "１９９７",
        ] {
            assert_eq!(parse_w3c_datetime(bad), None, "{bad:?} must be rejected");
        }
    }

    #[test]
    fn date_only_values_start_at_utc_midnight() {
        let year = parse_w3c_datetime("2030").unwrap();
        assert_eq!(
            year.earliest(),
            "2030-01-01T00:00:00Z".parse::<Timestamp>().unwrap()
        );
        let month = parse_w3c_datetime("2030-02").unwrap();
        assert_eq!(
            month.earliest(),
            "2030-02-01T00:00:00Z".parse::<Timestamp>().unwrap()
        );
    }

    #[test]
    fn long_fractions_are_truncated_to_nanoseconds() {
        let value = parse_w3c_datetime("2024-01-01T00:00:00.1234567891234Z").unwrap();
        assert_eq!(
            value.earliest(),
            "2024-01-01T00:00:00.123456789Z"
                .parse::<Timestamp>()
                .unwrap()
        );
    }

    #[test]
    fn rfc2822_dates_parse() {
        assert_eq!(
            parse_rfc2822("Thu, 29 Feb 2024 05:34:00 -0500"),
            Some("2024-02-29T10:34:00Z".parse().unwrap())
        );
        assert_eq!(parse_rfc2822("2024-02-29"), None);
    }
}
