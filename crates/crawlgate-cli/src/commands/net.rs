//! What the network commands share: their tokio runtime (built here, so `main` stays
//! synchronous), telling a URL argument from a file path, and how they connect: the root
//! certificates of `--ca-cert`, the host names of `--resolve`.

use crate::commands::input::read_at_most;
use anyhow::Context;
use crawlgate::Access;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use url::Url;

/// A certificate file read at most (a system CA bundle is about 200 KiB).
const MAX_CA_CERT_BYTES: u64 = 16 * 1024 * 1024;

/// `--ca-cert FILE` and `--resolve HOST=ADDR[:PORT]`: how every command that fetches over HTTP
/// connects, besides the system's trust store and DNS.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ConnectArgs {
    /// Trust this root certificate too, besides the system's: a PEM file (one or more
    /// certificates) or a DER one. For a staging site behind an internal CA. Repeatable.
    #[arg(help_heading = "Access", long = "ca-cert", value_name = "FILE")]
    pub(crate) ca_certs: Vec<PathBuf>,

    /// Connect to ADDR for HOST instead of asking DNS, like curl's --resolve: audit a new server
    /// under the production host name before the DNS switch. Without a port, the URL's port (or
    /// 80/443); with one, for URLs that name none. URLs and TLS checks keep the host name.
    /// Repeatable.
    #[arg(help_heading = "Access", long = "resolve", value_name = "HOST=ADDR[:PORT]", value_parser = parse_resolve)]
    pub(crate) resolve: Vec<(String, SocketAddr)>,

    /// Send this header with every request to the site (its hosts only, never a third-party
    /// one): a staging token. The value is a secret: never shown. Repeatable.
    // Read as text and checked in `http()`: clap's own error would quote the value.
    #[arg(help_heading = "Access", long = "header", value_name = "NAME: VALUE")]
    pub(crate) headers: Vec<String>,

    /// Send this cookie with every request to the site (its hosts only): `name=value`.
    /// Repeatable. Also read from `$CRAWLGATE_COOKIE`.
    #[arg(
        help_heading = "Access",
        long = "cookie",
        value_name = "NAME=VALUE",
        env = "CRAWLGATE_COOKIE",
        hide_env_values = true
    )]
    pub(crate) cookies: Vec<String>,

    /// Log in to the site with HTTP basic authentication (its hosts only). Better read from
    /// `$CRAWLGATE_BASIC_AUTH`, which keeps the password out of the shell history; a
    /// `https://user:pass@host/` URL works too.
    #[arg(
        help_heading = "Access",
        long,
        value_name = "USER:PASSWORD",
        env = "CRAWLGATE_BASIC_AUTH",
        hide_env_values = true
    )]
    pub(crate) basic_auth: Option<String>,
}

impl ConnectArgs {
    /// The HTTP options of a single fetch: the defaults, trusting the certificates and
    /// resolving the host names.
    pub(crate) fn http(&self) -> anyhow::Result<crawlgate::HttpOptions> {
        Ok(crawlgate::HttpOptions {
            extra_root_certs: read_ca_certs(&self.ca_certs)?,
            resolve: self.resolve.clone(),
            access: self.access()?,
            ..crawlgate::HttpOptions::default()
        })
    }

    /// `--header`, `--cookie` and `--basic-auth`, checked; an error names the option, never
    /// the value.
    pub(crate) fn access(&self) -> anyhow::Result<Access> {
        let headers = self
            .headers
            .iter()
            .map(|line| Access::header(line))
            .collect::<Result<_, _>>()
            .context("--header")?;
        let cookie = if self.cookies.is_empty() {
            None
        } else {
            Some(Access::cookie(&self.cookies.join("; ")).context("--cookie")?)
        };
        let basic_auth = self
            .basic_auth
            .as_deref()
            .map(Access::basic_auth)
            .transpose()
            .context("--basic-auth")?;
        Ok(Access {
            headers,
            cookie,
            basic_auth,
        })
    }
}

/// `--resolve HOST=ADDR[:PORT]`; a bad one is a usage error saying what is expected.
fn parse_resolve(text: &str) -> Result<(String, SocketAddr), String> {
    crawlgate::parse_resolve(text).map_err(|error| error.to_string())
}

/// Read and check each certificate file: an unreadable file or one that holds no usable
/// certificate is an error naming it.
fn read_ca_certs(paths: &[PathBuf]) -> anyhow::Result<Vec<Vec<u8>>> {
    paths.iter().map(|path| read_ca_cert(path)).collect()
}

fn read_ca_cert(path: &Path) -> anyhow::Result<Vec<u8>> {
    let context = || format!("cannot use the CA certificate `{}`", path.display());
    let (bytes, complete) = read_at_most(path, MAX_CA_CERT_BYTES).with_context(context)?;
    if !complete {
        return Err(anyhow::anyhow!(
            "larger than {} MiB: not a certificate file",
            MAX_CA_CERT_BYTES / 1024 / 1024
        ))
        .with_context(context);
    }
    crawlgate::check_root_certificates(&bytes).with_context(context)?;
    Ok(bytes)
}

/// The runtime for one command: one thread for the network and the crawl, plus blocking
/// threads. The crawl's requests wait on the network, its CPU work is in parsing: bodies over 32
/// KiB are parsed on the blocking threads, in parallel; smaller ones on the crawl's thread, where
/// a worker pool would cost more in hand-offs (a wake-up per response, the driver's loop on
/// another thread than the fetches) than their parse, and a local server would lose a core to
/// it (BENCHMARKS.md, "The machine's ceiling"). Blocking threads are work bound by CPU: more of
/// them than cores parse no faster, and each holds a document and keeps its own allocator pages,
/// so there are as many as cores (tokio's default is 512).
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(cores.max(2))
        .build()
        .context("cannot start the async runtime")
}

/// The argument as an http(s) URL, when it is written as one (`http://` or `https://`, any
/// case); `None` for anything else (a file path).
pub(crate) fn as_url(argument: &str) -> Option<anyhow::Result<Url>> {
    let lower = argument.get(..8).unwrap_or(argument).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    Some(
        Url::parse(argument)
            .with_context(|| format!("`{}` is not a valid URL", without_userinfo(argument))),
    )
}

/// An http(s) URL with a host, as `--sitemap` takes it (and the config file's `sitemaps`):
/// crawlgate fetches nothing else, so `file:///etc/passwd` is refused, not dropped.
pub(crate) fn parse_http_url(argument: &str) -> Result<Url, String> {
    match as_url(argument) {
        Some(Ok(url)) if url.host_str().is_some_and(|host| !host.is_empty()) => Ok(url),
        Some(Ok(_)) => Err(format!("`{}` has no host", without_userinfo(argument))),
        Some(Err(error)) => Err(format!("{error:#}")),
        None => Err(format!(
            "`{}` is not an http or https URL (crawlgate fetches only those)",
            without_userinfo(argument)
        )),
    }
}

/// A URL argument as it may be shown: credentials written in it (`https://user:pass@host/`)
/// replaced by `…@`.
pub(crate) fn without_userinfo(argument: &str) -> String {
    let Some((scheme, rest)) = argument.split_once("://") else {
        return argument.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => format!("{scheme}://…@{}", &rest[at + 1..]),
        None => argument.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_paths() {
        assert!(as_url("robots.txt").is_none());
        assert!(as_url("./http:/x").is_none());
        assert!(as_url("HTTPS://example.com/robots.txt").unwrap().is_ok());
        assert!(as_url("http://").unwrap().is_err());
    }

    #[test]
    fn credentials_in_a_url_argument_are_never_shown() {
        assert_eq!(
            without_userinfo("https://alice:s3cret@staging.example.com/a@b"),
            "https://…@staging.example.com/a@b"
        );
        assert_eq!(without_userinfo("http://x.test/a@b"), "http://x.test/a@b");
        assert_eq!(without_userinfo("robots.txt"), "robots.txt");
        let error = as_url("http://alice:s3cret@[bad/").unwrap().unwrap_err();
        assert!(!format!("{error:#}").contains("s3cret"), "{error:#}");
    }

    #[test]
    fn resolve_flags_are_read_and_reach_the_http_options() {
        use clap::Parser;
        #[derive(Debug, Parser)]
        struct Cli {
            #[command(flatten)]
            connect: ConnectArgs,
        }
        let cli = Cli::try_parse_from([
            "crawlgate",
            "--resolve",
            "www.example.com=10.0.0.5",
            "--resolve=Staging.Example.com=[::1]:8443",
        ])
        .unwrap();
        let http = cli.connect.http().unwrap();
        assert_eq!(
            http.resolve,
            [
                ("www.example.com".to_owned(), "10.0.0.5:0".parse().unwrap()),
                (
                    "staging.example.com".to_owned(),
                    "[::1]:8443".parse().unwrap()
                ),
            ]
        );
        for bad in ["www.example.com", "www.example.com=", "10.0.0.1=10.0.0.5"] {
            let error = Cli::try_parse_from(["crawlgate", "--resolve", bad]).unwrap_err();
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ValueValidation,
                "{bad}"
            );
        }
    }

    #[test]
    fn ca_cert_files_are_read_and_checked() {
        let dir = std::env::temp_dir().join(format!("crawlgate-ca-cert-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("ca.pem");
        std::fs::write(&good, crawlgate_serve::LOOPBACK_CA_PEM).unwrap();
        let bad = dir.join("notes.txt");
        std::fs::write(&bad, "not a certificate").unwrap();
        let read = read_ca_certs(std::slice::from_ref(&good)).unwrap();
        assert_eq!(read, [crawlgate_serve::LOOPBACK_CA_PEM.as_bytes()]);
        let error = format!("{:#}", read_ca_certs(&[good, bad]).unwrap_err());
        assert!(error.contains("notes.txt"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
