//! What an answer says about its host's health: overloaded (429, 503, with the `Retry-After`
//! it asks for), failing (a timeout, a dropped connection, another 5xx), or healthy. The driver
//! backs off by it ([`crate::Retry`]).

use crawlgate_core::crawl::Response;
use crawlgate_core::site::FailureKind;
use std::time::{Duration, SystemTime};

/// A host's health, from one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HostSignal {
    Healthy,
    /// 429 Too Many Requests or 503 Service Unavailable: come back later, after `retry_after`
    /// when the answer says.
    Overloaded {
        retry_after: Option<Duration>,
    },
    /// No answer in time, a dropped connection, or a 5xx other than 503.
    Failing,
}

/// Whether an answer with `signal` is asked again, when it may be after a pause of at most
/// `within` (`None`: it may not be): an overloaded answer whose `Retry-After`, if any, is
/// within that. A longer `Retry-After` is not cut short by asking early: the answer stands.
pub(crate) fn asks_again(signal: HostSignal, within: Option<Duration>) -> bool {
    match (signal, within) {
        (HostSignal::Overloaded { retry_after }, Some(bound)) => {
            retry_after.is_none_or(|wait| wait <= bound)
        }
        _ => false,
    }
}

/// The signal of `response`, received at `now` (an HTTP-date `Retry-After` counts from it).
pub(crate) fn signal_of(response: &Response, now: SystemTime) -> HostSignal {
    match &response.outcome {
        Ok(received) => match received.status {
            429 | 503 => HostSignal::Overloaded {
                retry_after: received
                    .headers
                    .iter()
                    .find(|line| line.name.eq_ignore_ascii_case("retry-after"))
                    .and_then(|line| retry_after(&line.value, now)),
            },
            500..=599 => HostSignal::Failing,
            _ => HostSignal::Healthy,
        },
        Err((FailureKind::Timeout | FailureKind::Reset, _)) => HostSignal::Failing,
        Err(_) => HostSignal::Healthy,
    }
}

/// A `Retry-After` value (RFC 9110 §10.2.3): a number of seconds, or an HTTP date (all three
/// formats of §5.6.7), counted from `now`; a date in the past is no wait. `None` for anything
/// else.
pub(crate) fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // A number too long for u64 is still "a long time".
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
    }

    #[test]
    fn retry_after_takes_seconds_and_the_three_http_date_formats() {
        // Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example.
        let date = 784_111_777;
        let now = at(date - 120);
        assert_eq!(retry_after("5", now), Some(Duration::from_secs(5)));
        assert_eq!(retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(
            retry_after("99999999999999999999999", now),
            Some(Duration::from_secs(u64::MAX))
        );
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(
                retry_after(text, now),
                Some(Duration::from_secs(120)),
                "{text}"
            );
        }
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:37 GMT", at(date + 5)),
            Some(Duration::ZERO)
        );
        for bad in ["", "-1", "1.5", "soon", "5 s"] {
            assert_eq!(retry_after(bad, now), None, "{bad}");
        }
    }
}
