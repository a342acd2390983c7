//! What the commands read: robots.txt files and URLs, URL lists.

use crate::commands::net;
use anyhow::{Context, bail};
use crawlgate::robots::GOOGLE_MAX_ROBOTS_BYTES;
use crawlgate::site::{RobotsEffect, RobotsFile};
use crawlgate::{HttpOptions, fetch_robots};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use url::Url;

/// A report.json (`diff`) or baseline (`audit --baseline`) larger than this is refused: each is
/// read whole into memory, and the 100,000-page benchmark audit's is about 50 MB (ten million
/// pages make 5.3 GB: their audits are compared through the Parquet tables).
pub(crate) const MAX_REPORT_BYTES: u64 = 1024 * 1024 * 1024;

/// A URL line of `--urls-from` longer than this is an error, so one line cannot fill memory.
const MAX_URL_LINE_BYTES: usize = 64 * 1024;

/// Fetch the robots.txt governing `url`, saying on stderr what the answer means for Googlebot.
pub(crate) fn fetch(url: &Url, http: &HttpOptions) -> anyhow::Result<RobotsFile> {
    let runtime = net::runtime()?;
    let robots = runtime.block_on(fetch_robots(url, http));
    if url.path() != "/robots.txt" {
        crate::terminal::say!(
            "note: a robots.txt is valid only at the root of its host: fetched {}",
            robots.url
        );
    }
    for hop in &robots.hops {
        crate::terminal::say!(
            "note: {} answered {}, redirecting to {}",
            hop.url,
            hop.status,
            hop.location.as_deref().unwrap_or("?")
        );
    }
    if robots.effect != RobotsEffect::Rules {
        crate::terminal::say!("note: {}: {}", robots.url, robots.effect_reason);
    }
    if robots
        .outcome
        .as_ref()
        .is_ok_and(|received| received.body_truncated)
    {
        crate::terminal::say!(
            "note: {} is longer than {} bytes; only that much was read (Google reads {GOOGLE_MAX_ROBOTS_BYTES})",
            robots.url,
            robots.body().map_or(0, <[u8]>::len)
        );
    }
    Ok(robots)
}

/// Reads at most `limit` bytes of a robots.txt file, and whether that was the whole file.
pub(crate) fn read_robots(file: &str, limit: usize) -> anyhow::Result<(Vec<u8>, bool)> {
    read_at_most(Path::new(file), u64::try_from(limit).unwrap_or(u64::MAX))
        .with_context(|| format!("cannot read robots.txt file `{file}`"))
}

/// The first `limit` bytes of the file at `path`, and whether that was the whole file: a file
/// the user names is never read whole into memory before its size is known.
pub(crate) fn read_at_most(path: &Path, limit: u64) -> std::io::Result<(Vec<u8>, bool)> {
    let mut body = Vec::new();
    std::fs::File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut body)?;
    let complete = body.len() as u64 <= limit;
    body.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok((body, complete))
}

/// The text of the file at `path`, `what` it is (`the config file`): an error when it is larger
/// than `limit` bytes (saying `instead`, what to do then, when given), holds a NUL byte (no
/// text file does; it is read in blocks, so `--config /dev/zero` fails at once instead of
/// filling memory) or is not UTF-8.
pub(crate) fn read_text_at_most(
    path: &Path,
    limit: u64,
    what: &str,
    instead: Option<&str>,
) -> anyhow::Result<String> {
    let context = || format!("cannot read {what} `{}`", path.display());
    let mut file = std::fs::File::open(path).with_context(context)?;
    let mut bytes = Vec::new();
    let mut block = vec![0; 64 * 1024];
    loop {
        let read = match file.read(&mut block) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error).with_context(context),
        };
        if block[..read].contains(&0) {
            bail!("{what} `{}` is not a text file", path.display());
        }
        bytes.extend_from_slice(&block[..read]);
        if bytes.len() as u64 > limit {
            bail!(
                "{what} `{}` is larger than {limit} bytes, the most crawlgate reads as {what}{}",
                path.display(),
                instead
                    .map(|instead| format!("; {instead}"))
                    .unwrap_or_default()
            );
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{what} `{}` is not UTF-8 text", path.display()))
}

/// Calls `each` with every non-blank line of `source` (`-` = stdin), one at a time.
pub(crate) fn for_each_line(
    source: &PathBuf,
    mut each: impl FnMut(&str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for_each_numbered_line(source, |_, line| each(line))
}

/// The URLs of a list-mode file (`--urls-from`, `-` = stdin): one http(s) URL per line, blank
/// lines and lines starting with `#` left out, at most `max_urls` (the page bound: each is
/// fetched as a page). A line that is not an http(s) URL is an error naming the file and line.
pub(crate) fn read_url_list(source: &PathBuf, max_urls: u64) -> anyhow::Result<Vec<Url>> {
    let mut urls = Vec::new();
    let name = source.display();
    for_each_numbered_line(source, |number, line| {
        if line.starts_with('#') {
            return Ok(());
        }
        let url = match net::as_url(line) {
            Some(Ok(url)) if url.host_str().is_some_and(|h| !h.is_empty()) => url,
            Some(Ok(_)) => bail!("`{name}` line {number}: `{line}` has no host"),
            Some(Err(error)) => bail!("`{name}` line {number}: {error:#}"),
            None => bail!(
                "`{name}` line {number}: `{line}` is not an http or https URL (write each URL in \
                 full, e.g. https://example.com/page)"
            ),
        };
        if urls.len() as u64 >= max_urls {
            bail!(
                "`{name}` lists more than {max_urls} URLs, the page bound (each listed URL is \
                 fetched as a page): raise --max-pages or split the list"
            );
        }
        urls.push(url);
        Ok(())
    })?;
    if urls.is_empty() {
        bail!("`{name}` lists no URL (one http or https URL per line; `#` starts a comment)");
    }
    Ok(urls)
}

/// Calls `each` with the 1-based number and the trimmed text of every non-blank line of `source`
/// (`-` = stdin), one at a time; a line longer than [`MAX_URL_LINE_BYTES`] is an error.
fn for_each_numbered_line(
    source: &PathBuf,
    mut each: impl FnMut(u64, &str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let reader: Box<dyn BufRead> = if source.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(source)
            .with_context(|| format!("cannot read URL list `{}`", source.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut reader = reader;
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let limit = u64::try_from(MAX_URL_LINE_BYTES).unwrap_or(u64::MAX);
        let read = (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut line)
            .with_context(|| format!("cannot read URL list `{}`", source.display()))?;
        if read == 0 {
            break;
        }
        if read >= MAX_URL_LINE_BYTES && line.last() != Some(&b'\n') {
            bail!(
                "line {number} of URL list `{}` is longer than {MAX_URL_LINE_BYTES} bytes",
                source.display()
            );
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if !text.is_empty() {
            each(number, text)?;
        }
    }
    Ok(())
}
