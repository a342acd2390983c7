use super::{End, chain_evidence, end, hops, last_location};
use crate::support::response_evidence;
use crawlgate_core::declare_rule;
use crawlgate_core::rule::{Findings, Occurrence, Rule};
use crawlgate_core::site::{FailureKind, ResourceState};
use crawlgate_core::{Evidence, Site};
use url::Url;

declare_rule! {
    /// ## What it does
    /// Reports a start URL that gives the audit nothing to crawl: it answers with an error
    /// status (4xx or 5xx), directly or at the end of its redirects, or gives no usable
    /// response (a redirect loop, the host unreachable). A 401 means the site asks for
    /// credentials and a 403 that it forbids crawlgate (a firewall, bot protection, an address
    /// allow list): the message says how to give credentials. `crawlgate audit` also says so on
    /// standard error and exits 3 (inconclusive); when the host gives no HTTP response at all
    /// (DNS, refused connection, TLS, timeout), it writes no report.
    ///
    /// ## Why is this bad?
    /// Everything else the audit reports comes from the pages reached from the start URL. When
    /// it answers an error, the audit saw one error page, and the site may look clean because
    /// nothing was read. If Googlebot gets the same answer, the home page drops out of the
    /// index: Google does not index URLs answering 4xx, and drops those that keep answering
    /// 5xx ("How HTTP status codes, and network and DNS errors affect Google Search").
    ///
    /// ## Example
    /// ```text
    /// crawlgate audit https://staging.example.com/
    /// https://staging.example.com/   401 Unauthorized   WWW-Authenticate: Basic realm="staging"
    /// ```
    ///
    /// ## How to fix
    /// Check that the start URL is right and that the site is up. For a site behind a sign-in,
    /// give crawlgate credentials: `--basic-auth USER:PASS`, a header (`--header 'Name:
    /// value'`) or a session cookie (`--cookie`). For a 403, allow crawlgate's User-Agent or
    /// address in the firewall or bot protection, for the audit's time. If search engines get
    /// the same error, fix that first: it is the most urgent finding of the audit.
    pub struct StartUrlError {
        id: "http/start-url-error",
        severity: Critical,
        summary: "The start URL answers an error status or gives no usable response",
    }
}

impl Rule for StartUrlError {
    fn check(&self, site: &Site, out: &mut Findings<'_>) {
        let Some(answer) = start_url_answer(site) else {
            return;
        };
        let message = format!("the start URL {} {answer}", site.start_url);
        let start = site
            .resource(&site.start_url)
            .filter(|start| !matches!(start.state, ResourceState::NotFetched(_)));
        let Some(start) = start else {
            // Not fetched: robots.txt's failure is what the audit knows of the host.
            if let Some(robots) = site.robots_for(&site.start_url) {
                out.report(
                    Occurrence::new(site.start_url.as_str(), message)
                        .evidence(robots.fetch_evidence()),
                );
            }
            return;
        };
        let mut report =
            Occurrence::new(start.url.as_str(), message).evidence(response_evidence(start));
        match &start.state {
            ResourceState::Redirected { final_url, .. } => {
                if let Some(target) = site.resource(final_url) {
                    report = report.evidence(response_evidence(target));
                    report = report.evidence_all(auth_header(site, target));
                }
            }
            ResourceState::Failed { hops: chain, .. } if !chain.is_empty() => {
                let to = last_location(hops(start)).unwrap_or_default();
                report = report.evidence(chain_evidence(start, to));
            }
            _ => report = report.evidence_all(auth_header(site, start)),
        }
        out.report(report);
    }
}

/// What the start URL answered, in words, when it is no page to audit: `answers 401: the site
/// asks for credentials …`, `redirects to …, which answers 404: …`, `gives no usable response:
/// connection refused …`. `None` when the start URL answered a page (2xx, or a 3xx that is not a
/// redirect) or was not fetched for another reason. The finding's message and the line
/// `crawlgate audit` prints on standard error both say this.
pub fn start_url_answer(site: &Site) -> Option<String> {
    let unreachable = || {
        start_unreachable(site)
            .map(|unreachable| format!("gives no response: {}", unreachable.cause()))
    };
    let Some(start) = site.resource(&site.start_url) else {
        return unreachable();
    };
    Some(match (end(start), &start.state) {
        (End::Status { status, .. }, ResourceState::Redirected { final_url, .. })
            if status >= 400 =>
        {
            format!(
                "redirects to {final_url}, which {}",
                start_status_words(status)
            )
        }
        (End::Status { status, .. }, _) if status >= 400 => start_status_words(status),
        (End::NoResponse { kind, message }, _) if hops(start).is_empty() => format!(
            "gives no usable response: {}",
            failure_words(&site.start_url, kind, message)
        ),
        (End::NoResponse { kind, message }, _) => {
            let target = last_location(hops(start)).unwrap_or_default();
            let target_url = Url::parse(&target).unwrap_or_else(|_| site.start_url.clone());
            format!(
                "redirects to {target}, which gives no usable response: {}",
                failure_words(&target_url, kind, message)
            )
        }
        (End::Loop, _) => "redirects in a loop and never reaches a page".to_owned(),
        (End::TooManyRedirects, _) => {
            "redirects more times than the crawler follows (10) without reaching a page".to_owned()
        }
        (End::Unknown, _) => return unreachable(),
        (End::Status { .. }, _) => return None,
    })
}

/// The `WWW-Authenticate` header of a 401, quoted: what the site asks for.
fn auth_header(site: &Site, resource: &crawlgate_core::site::Resource) -> Option<Evidence> {
    let page = site.page(resource)?;
    let line = page.headers.iter().find(|h| h.is("www-authenticate"))?;
    Some(Evidence::HttpHeader {
        url: resource.url.to_string(),
        name: line.name.to_owned(),
        value: line.value.to_owned(),
    })
}

/// The start URL's host gave no HTTP response at all: what was tried and why it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartUnreachable {
    /// The start URL.
    pub url: Url,
    pub kind: FailureKind,
    /// The failure as the client described it.
    pub message: String,
}

impl StartUnreachable {
    /// The cause in words, with what to check: `connection refused (is the server running and
    /// the port right?)`.
    pub fn cause(&self) -> String {
        failure_words(&self.url, self.kind, &self.message)
    }
}

/// Failures that mean no HTTP response came at all (as opposed to a broken body or redirect).
fn is_unreachable(kind: FailureKind) -> bool {
    matches!(
        kind,
        FailureKind::Dns
            | FailureKind::Connect
            | FailureKind::Tls
            | FailureKind::Timeout
            | FailureKind::Reset
            | FailureKind::InvalidResponse
    )
}

/// When the start URL got no HTTP response at all (DNS failure, refused connection, TLS
/// failure, timeout, reset, not HTTP), before any redirect: nothing of the site was audited.
/// Read from the start URL's own fetch, or, when it was not fetched (`--obey-robots` after
/// robots.txt failed), from its origin's robots.txt fetch.
pub fn start_unreachable(site: &Site) -> Option<StartUnreachable> {
    let failure = match site.resource(&site.start_url).map(|r| &r.state) {
        Some(ResourceState::Failed {
            hops,
            kind,
            message,
        }) if hops.is_empty() => (*kind, message.to_string()),
        Some(ResourceState::NotFetched(_)) | None => {
            let robots = site.robots_for(&site.start_url)?;
            match &robots.outcome {
                Err((kind, message)) if robots.hops.is_empty() => (*kind, message.clone()),
                _ => return None,
            }
        }
        _ => return None,
    };
    is_unreachable(failure.0).then(|| StartUnreachable {
        url: site.start_url.clone(),
        kind: failure.0,
        message: failure.1,
    })
}

/// What a start URL's error status means, in words, with what to do for 401 and 403:
/// `answers 401: the site asks for credentials …`.
pub fn start_status_words(status: u16) -> String {
    match status {
        401 => "answers 401: the site asks for credentials, so the audit saw only that answer; \
                give them with --basic-auth USER:PASS, --header 'Name: value' or --cookie"
            .to_owned(),
        403 => "answers 403: the site forbids crawlgate (a firewall, bot protection, an address \
                allow list or a sign-in), so the audit saw only that answer; allow crawlgate, or \
                give credentials with --basic-auth USER:PASS, --header 'Name: value' or --cookie"
            .to_owned(),
        429 => "answers 429 Too Many Requests: the site rate-limits crawlgate; try again later \
                or slower (--rate)"
            .to_owned(),
        500.. => format!("answers {status}: the server fails, so the audit saw only that answer"),
        _ => format!("answers {status}: the audit saw an error page instead of the site"),
    }
}

/// A failure to get a response from `url`, in words, with what to check.
pub fn failure_words(url: &Url, kind: FailureKind, message: &str) -> String {
    let host = url.host_str().unwrap_or_default();
    match kind {
        FailureKind::Dns => format!(
            "the host name `{host}` does not resolve (check its spelling; --resolve HOST=ADDR \
             reaches a server DNS does not point at yet)"
        ),
        FailureKind::Connect if message.to_ascii_lowercase().contains("refused") => {
            "connection refused (is the server running and the port right?)".to_owned()
        }
        FailureKind::Connect => format!("the connection could not be made ({message})"),
        FailureKind::Tls => format!(
            "TLS failed: {} (for a site whose certificate comes from a private or internal CA, \
             trust that CA with --ca-cert FILE)",
            certificate_problem(message)
        ),
        FailureKind::Timeout => format!("no response in time ({message}; see --timeout)"),
        FailureKind::Reset => format!("the connection was closed before a response ({message})"),
        FailureKind::InvalidResponse => format!(
            "the answer is not valid HTTP ({message}; is the scheme right, and is it a web \
             server?)"
        ),
        _ => format!("{} ({message})", kind.as_str()),
    }
}

/// The certificate problem a TLS failure message names, in words.
fn certificate_problem(message: &str) -> String {
    const MARK: &str = "invalid peer certificate: ";
    let Some(at) = message.find(MARK) else {
        return format!("the handshake failed ({message})");
    };
    let problem = message[at + MARK.len()..].trim();
    let words = match problem {
        "UnknownIssuer" => "the certificate is signed by an unknown authority",
        "Expired" => "the certificate has expired",
        "NotValidYet" => "the certificate is not valid yet",
        "Revoked" => "the certificate is revoked",
        "BadSignature" => "the certificate's signature is invalid",
        "NotValidForName" => "the certificate is not valid for this host name",
        _ => return format!("invalid certificate: {problem}"),
    };
    format!("{words} ({problem})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_named_with_what_to_check() {
        let url = Url::parse("https://shop.invalid/").unwrap();
        assert!(
            failure_words(&url, FailureKind::Dns, "dns error")
                .contains("`shop.invalid` does not resolve")
        );
        assert_eq!(
            failure_words(
                &url,
                FailureKind::Connect,
                "tcp connect error: Connection refused (os error 111)"
            ),
            "connection refused (is the server running and the port right?)"
        );
        let tls = failure_words(
            &url,
            FailureKind::Tls,
            "error sending request: client error (Connect): invalid peer certificate: UnknownIssuer",
        );
        assert!(
            tls.contains("signed by an unknown authority (UnknownIssuer)"),
            "{tls}"
        );
        assert!(tls.contains("--ca-cert FILE"), "{tls}");
        assert!(start_status_words(401).contains("--basic-auth USER:PASS"));
        assert!(start_status_words(403).contains("forbids crawlgate"));
    }
}
