//! A fetched robots.txt and what Google does with the outcome (RULES.md §1.1, status table).

use crate::finding::{Evidence, RedirectHop};
use crate::robots::RobotsTxt;
use crate::site::fetch::{FailureKind, Received};
use serde::{Deserialize, Serialize};

/// Google follows at least five redirect hops for robots.txt, then treats it as a 404.
pub const ROBOTS_MAX_REDIRECTS: usize = 5;

/// What the fetch outcome means for crawling, as Google applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RobotsEffect {
    /// 2xx: the file's rules apply.
    Rules,
    /// 4xx other than 429, or too many redirects: as if there were no robots.txt; crawl everything.
    AllowAll,
    /// 5xx, 429, or no usable response (DNS, timeout, reset, broken body): Google stops crawling the
    /// site (for 12 hours, then uses its last good copy for up to 30 days).
    DisallowAll,
}

impl RobotsEffect {
    pub fn as_str(self) -> &'static str {
        match self {
            RobotsEffect::Rules => "rules",
            RobotsEffect::AllowAll => "allow-all",
            RobotsEffect::DisallowAll => "disallow-all",
        }
    }
}

/// The robots.txt of one origin (scheme + host + port), as fetched.
#[derive(Debug, Clone)]
pub struct RobotsFile {
    /// `scheme://host[:port]`, as `url::Origin::ascii_serialization` gives it.
    pub origin: String,
    /// `{origin}/robots.txt`.
    pub url: url::Url,
    /// Redirect hops before the final response (empty when none).
    pub hops: Vec<RedirectHop>,
    /// The final response, or why there was none.
    pub outcome: Result<Received, (FailureKind, String)>,
    /// What Google does with this outcome.
    pub effect: RobotsEffect,
    /// The effect explained in words, naming the status or failure.
    pub effect_reason: String,
    /// The parsed file (the first 500 KiB, as Googlebot reads it); empty unless `effect` is
    /// [`RobotsEffect::Rules`].
    pub parsed: RobotsTxt,
    /// What was read instead of the live file (a `--robots-override` file's name), when the
    /// audit asked: then nothing was fetched and the outcome is that file as a 200 answer.
    pub overridden_by: Option<String>,
}

/// A robots.txt to audit with instead of an origin's live one: the what-if before a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotsOverride {
    /// What to call it in the report (the file's path as given).
    pub name: String,
    /// Its bytes.
    pub body: Vec<u8>,
}

impl RobotsFile {
    /// Apply Google's status semantics to a fetch outcome.
    pub fn from_fetch(
        origin: String,
        url: url::Url,
        hops: Vec<RedirectHop>,
        outcome: Result<Received, (FailureKind, String)>,
    ) -> Self {
        let (effect, effect_reason) = effect_of(&hops, &outcome);
        let parsed = match (&outcome, effect) {
            (Ok(received), RobotsEffect::Rules) => RobotsTxt::parse_fetched(&received.body),
            _ => RobotsTxt::parse(b""),
        };
        Self {
            origin,
            url,
            hops,
            outcome,
            effect,
            effect_reason,
            parsed,
            overridden_by: None,
        }
    }

    /// `replacement` read as the robots.txt at `url` of `origin`, as if it had answered 200 with
    /// it (its first `max_bytes` bytes, as a fetch would keep).
    pub fn from_override(
        origin: String,
        url: url::Url,
        replacement: &RobotsOverride,
        max_bytes: u64,
    ) -> Self {
        let keep = usize::try_from(max_bytes).unwrap_or(usize::MAX);
        let body = replacement.body.get(..keep).unwrap_or(&replacement.body);
        let received = Received {
            final_url: url.clone(),
            status: 200,
            headers: Vec::new(),
            body: body.to_vec(),
            body_truncated: body.len() < replacement.body.len(),
        };
        let mut file = Self::from_fetch(origin, url, Vec::new(), Ok(received));
        file.effect_reason = format!(
            "read from `{}` instead of the live file (--robots-override): {}",
            replacement.name, file.effect_reason
        );
        file.overridden_by = Some(replacement.name.clone());
        file
    }

    /// The final HTTP status, if a response came.
    pub fn status(&self) -> Option<u16> {
        self.outcome.as_ref().ok().map(|r| r.status)
    }

    /// The body as received (bounded by the crawler), when a response came.
    pub fn body(&self) -> Option<&[u8]> {
        self.outcome.as_ref().ok().map(|r| r.body.as_slice())
    }

    /// The text of a 1-based line of the body, lossily decoded, for quoting.
    pub fn line_text(&self, line: u32) -> Option<String> {
        let body = self.body()?;
        let index = usize::try_from(line).ok()?.checked_sub(1)?;
        split_lines(body)
            .nth(index)
            .map(|l| String::from_utf8_lossy(l).into_owned())
    }

    /// Evidence: how the file was fetched and what that means.
    pub fn fetch_evidence(&self) -> Evidence {
        Evidence::RobotsFetch {
            robots_url: self.url.to_string(),
            status: self.status(),
            effect: self.effect.as_str().to_owned(),
            detail: self.effect_reason.clone(),
        }
    }
}

pub use crate::robots::split_lines;

fn effect_of(
    hops: &[RedirectHop],
    outcome: &Result<Received, (FailureKind, String)>,
) -> (RobotsEffect, String) {
    if hops.len() > ROBOTS_MAX_REDIRECTS {
        return (
            RobotsEffect::AllowAll,
            format!(
                "robots.txt redirected {} times; Google follows {ROBOTS_MAX_REDIRECTS} hops, then treats it as a 404: no crawl restrictions",
                hops.len()
            ),
        );
    }
    match outcome {
        Err((FailureKind::TooManyRedirects | FailureKind::RedirectLoop, message)) => (
            RobotsEffect::AllowAll,
            format!("{message}; Google treats a robots.txt redirect chain it cannot finish as a 404: no crawl restrictions"),
        ),
        Err((kind, message)) => (
            RobotsEffect::DisallowAll,
            format!(
                "no usable response ({}: {message}); Google treats this as a server error and stops crawling the site",
                kind.as_str()
            ),
        ),
        Ok(received) => match received.status {
            200..=299 => (
                RobotsEffect::Rules,
                format!("answered {}: its rules apply", received.status),
            ),
            429 => (
                RobotsEffect::DisallowAll,
                "answered 429: Google treats it as a server error and stops crawling the site for 12 hours, then uses its last good copy for up to 30 days".to_owned(),
            ),
            300..=399 => (
                RobotsEffect::AllowAll,
                format!("answered {} without a redirect to follow: Google treats it as a 404, no crawl restrictions", received.status),
            ),
            400..=499 => (
                RobotsEffect::AllowAll,
                format!("answered {}: Google crawls as if there were no robots.txt", received.status),
            ),
            status => (
                RobotsEffect::DisallowAll,
                format!("answered {status}: Google stops crawling the whole site for 12 hours, then uses its last good copy for up to 30 days"),
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(status: u16) -> Received {
        Received::for_test(status, b"User-agent: *\nDisallow: /x\n")
    }

    type Outcome = Result<Received, (FailureKind, String)>;

    fn hop(n: usize) -> Vec<RedirectHop> {
        (0..n)
            .map(|i| RedirectHop {
                url: format!("http://a.test/r{i}"),
                status: 301,
                location: Some(format!("/r{}", i + 1)),
            })
            .collect()
    }

    fn effect(hops: usize, outcome: &Outcome) -> RobotsEffect {
        effect_of(&hop(hops), outcome).0
    }

    #[test]
    fn google_status_semantics() {
        assert_eq!(effect(0, &Ok(received(200))), RobotsEffect::Rules);
        assert_eq!(effect(5, &Ok(received(200))), RobotsEffect::Rules);
        assert_eq!(effect(6, &Ok(received(200))), RobotsEffect::AllowAll);
        assert_eq!(effect(0, &Ok(received(404))), RobotsEffect::AllowAll);
        assert_eq!(effect(0, &Ok(received(401))), RobotsEffect::AllowAll);
        assert_eq!(effect(0, &Ok(received(403))), RobotsEffect::AllowAll);
        assert_eq!(effect(0, &Ok(received(429))), RobotsEffect::DisallowAll);
        assert_eq!(effect(0, &Ok(received(500))), RobotsEffect::DisallowAll);
        assert_eq!(effect(0, &Ok(received(503))), RobotsEffect::DisallowAll);
        assert_eq!(
            effect(0, &Err((FailureKind::Timeout, "timed out".into()))),
            RobotsEffect::DisallowAll
        );
        assert_eq!(
            effect(0, &Err((FailureKind::TooManyRedirects, "11 hops".into()))),
            RobotsEffect::AllowAll
        );
    }
}
