//! `unavailable_after` dates, in the three formats Google documents: RFC 822
//! (`25 Jun 2010 15:00:00 PST`, `Fri, 25 Jun 2010 15:00:00 GMT`), RFC 850
//! (`Friday, 25-Jun-10 15:00:00 GMT`) and ISO 8601 (`2010-06-25T15:00:00Z`, `2010-06-25`).
//!
//! A written weekday is skipped, not checked: the date decides. A date without time is midnight,
//! and a time without zone is UTC (Google does not say; this is the least surprising reading).

use jiff::Timestamp;
use jiff::civil::{Date, DateTime, Time};
use jiff::tz::Offset;

/// Longest value read; real dates are under 40 bytes.
const MAX_LEN: usize = 128;

/// Parses an `unavailable_after` value; `None` if it is in none of the documented formats
/// (Google then ignores the rule).
pub fn parse_unavailable_after(value: &str) -> Option<Timestamp> {
    let value = value.trim();
    if value.is_empty() || value.len() > MAX_LEN {
        return None;
    }
    if value.as_bytes().first()?.is_ascii_digit() && value.as_bytes().get(4) == Some(&b'-') {
        parse_iso8601(value)
    } else {
        parse_rfc822_or_850(value)
    }
}

fn parse_iso8601(value: &str) -> Option<Timestamp> {
    if let Ok(timestamp) = value.parse::<Timestamp>() {
        return Some(timestamp);
    }
    // No offset: read as UTC. A bare date is midnight.
    if let Ok(datetime) = value.parse::<DateTime>() {
        return Offset::UTC.to_timestamp(datetime).ok();
    }
    let date = value.parse::<Date>().ok()?;
    Offset::UTC
        .to_timestamp(date.to_datetime(Time::midnight()))
        .ok()
}

/// RFC 822 and RFC 850 share their parts: `[weekday,] day month year time [zone]`, separated by
/// spaces (822) or dashes between day, month and year (850).
fn parse_rfc822_or_850(value: &str) -> Option<Timestamp> {
    let mut rest = value;
    if let Some((first, after)) = rest.split_once(',') {
        weekday(first.trim())?;
        rest = after;
    } else if let Some((first, after)) = rest.trim_start().split_once(' ')
        && weekday(first).is_some()
    {
        rest = after;
    }
    let mut parts = rest.split([' ', '-', '\t']).filter(|part| !part.is_empty());
    let day: i8 = parts.next()?.parse().ok()?;
    let month = month(parts.next()?)?;
    let year = year(parts.next()?)?;
    let time = time(parts.next()?)?;
    let offset = match parts.next() {
        Some(zone) => zone_offset(zone)?,
        None => Offset::UTC,
    };
    if parts.next().is_some() {
        return None;
    }
    let date = Date::new(year, month, day).ok()?;
    offset.to_timestamp(date.to_datetime(time)).ok()
}

fn weekday(name: &str) -> Option<()> {
    const DAYS: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let name = name.to_ascii_lowercase();
    DAYS.iter()
        .any(|day| *day == name || (name.len() == 3 && day.starts_with(name.as_str())))
        .then_some(())
}

fn month(name: &str) -> Option<i8> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let name = name.to_ascii_lowercase();
    let position = MONTHS.iter().position(|month| name == *month)?;
    i8::try_from(position + 1).ok()
}

/// Four digits, or two (RFC 850): 00–49 → 20xx, 50–99 → 19xx.
fn year(text: &str) -> Option<i16> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: i16 = text.parse().ok()?;
    match text.len() {
        2 if number < 50 => Some(2000 + number),
        2 => Some(1900 + number),
        4 => Some(number),
        _ => None,
    }
}

/// `HH:MM` or `HH:MM:SS`.
fn time(text: &str) -> Option<Time> {
    let mut fields = text.split(':');
    let hour: i8 = fields.next()?.parse().ok()?;
    let minute: i8 = fields.next()?.parse().ok()?;
    let second: i8 = match fields.next() {
        Some(second) => second.parse().ok()?,
        None => 0,
    };
    if fields.next().is_some() {
        return None;
    }
    Time::new(hour, minute, second, 0).ok()
}

/// RFC 822 zones: `UT`, `GMT`, `UTC`, `Z`, the North American names, or `±HHMM`.
fn zone_offset(zone: &str) -> Option<Offset> {
    let hours = match zone.to_ascii_uppercase().as_str() {
        "UT" | "UTC" | "GMT" | "Z" => 0,
        "EDT" => -4,
        "EST" | "CDT" => -5,
        "CST" | "MDT" => -6,
        "MST" | "PDT" => -7,
        "PST" => -8,
        _ => return numeric_offset(zone),
    };
    Offset::from_hours(hours).ok()
}

fn numeric_offset(zone: &str) -> Option<Offset> {
    let (sign, digits) = match zone.as_bytes().first()? {
        b'+' => (1, zone.get(1..)?),
        b'-' => (-1, zone.get(1..)?),
        _ => return None,
    };
    let digits = digits.replace(':', "");
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hours: i32 = digits.get(..2)?.parse().ok()?;
    let minutes: i32 = digits.get(2..)?.parse().ok()?;
    if minutes >= 60 {
        return None;
    }
    Offset::from_seconds(sign * (hours * 3600 + minutes * 60)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    #[test]
    fn rfc_822_forms() {
        assert_eq!(
            parse_unavailable_after("25 Jun 2010 15:00:00 PST"),
            Some(utc("2010-06-25T23:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("Fri, 25 Jun 2010 15:00:00 GMT"),
            Some(utc("2010-06-25T15:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("Fri 25 Jun 2010 15:00 +0200"),
            Some(utc("2010-06-25T13:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("25 jun 10 15:00:00 EST"),
            Some(utc("2010-06-25T20:00:00Z"))
        );
    }

    #[test]
    fn rfc_850_forms() {
        assert_eq!(
            parse_unavailable_after("Friday, 25-Jun-10 15:00:00 GMT"),
            Some(utc("2010-06-25T15:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("Sunday, 01-Jan-2040 00:00:00 UTC"),
            Some(utc("2040-01-01T00:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("Thursday, 01-Jan-70 00:00:00 GMT"),
            Some(Timestamp::UNIX_EPOCH)
        );
    }

    #[test]
    fn iso_8601_forms() {
        assert_eq!(
            parse_unavailable_after("2020-09-21"),
            Some(utc("2020-09-21T00:00:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("2020-09-21T10:30:00+02:00"),
            Some(utc("2020-09-21T08:30:00Z"))
        );
        assert_eq!(
            parse_unavailable_after("2020-09-21T10:30:00"),
            Some(utc("2020-09-21T10:30:00Z"))
        );
        assert_eq!(
            parse_unavailable_after(" 2020-09-21T10:30Z "),
            Some(utc("2020-09-21T10:30:00Z"))
        );
    }

    #[test]
    fn invalid_dates_are_none() {
        for text in [
            "",
            "tomorrow",
            "2020-13-01",
            "2020-02-30",
            "31 Feb 2020 10:00:00 GMT",
            "25 Jun 2010",
            "25 Jun 2010 25:00:00 GMT",
            "25 Jun 2010 15:00:00 XYZ",
            "Funday, 25-Jun-10 15:00:00 GMT",
            "25 Jun 2010 15:00:00 GMT trailing",
            "25 Jun 123 15:00:00 GMT",
            "25 Jun 2010 15:00:00 +0160",
        ] {
            assert_eq!(parse_unavailable_after(text), None, "{text:?}");
        }
        assert_eq!(parse_unavailable_after(&"1".repeat(500)), None);
    }
}
