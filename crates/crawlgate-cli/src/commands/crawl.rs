//! `crawlgate crawl URL [--jsonl FILE]`: run the crawl alone and write what it saw, one JSON
//! line per resource, plus a summary.

use crate::commands::crawl_args::CrawlArgs;
use crate::commands::store::{FinishedStore, OpenStore, quit_cost};
use crate::commands::{atomic, live, net};
use crate::exit;
use crate::terminal::{self, Escapes};
use crawlgate::crawl::CrawlEvent;
use crawlgate::output::crawl::{
    start_error_message, start_unreachable_message, summary, write_jsonl,
};
use crawlgate::site::ResourceState;
use crawlgate::{Site, StopHandle, crawl_with_store};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Crawl a site and report every URL it met: status, redirects, robots.txt verdicts, signals.
///
/// Starts at URL: robots.txt first, then sitemaps (from robots.txt, --sitemap, and a
/// /sitemap.xml probe), then pages breadth first by click depth, plus sitemap-only pages and the
/// assets, canonical and hreflang targets of crawled pages. URLs robots.txt disallows are
/// fetched for diagnosis unless --obey-robots. Nothing leaves the start URL's scheme, host and
/// port unless --include-subdomains or --allow-host says so; --include and --exclude narrow it
/// (excluded pages are counted, not fetched). --urls-from FILE fetches exactly the listed URLs
/// (list mode), --sitemap-only the URLs the sitemaps list; neither follows links.
///
/// With --jsonl FILE (`-` for standard output), one JSON object per URL, sorted by URL, with the
/// keys `url`, `kind`, `state`, `final_url`, `hops`, `status`, `content_type`, `bytes`,
/// `truncated`, `failure`, `not_fetched`, `depth`, `discovered_from`, `inbound_links`, `robots` (a
/// verdict per profile) and `signals`.
/// A summary follows on standard output (standard error when the lines go there).
///
/// Exit status: 0 when the crawl ran (whatever it found); 2 when it cannot start (a start URL
/// that is not http or https or that --include/--exclude leave out, a bad --urls-from line); 3
/// when the start URL answered an error status or no response. When its host gives no response
/// at all (DNS, refused connection, TLS, timeout), standard error says why and nothing is
/// written.
#[derive(Debug, clap::Args)]
#[command(
    group = clap::ArgGroup::new("start").required(true).multiple(false).args(["url", "urls_from"]),
    after_help = "Examples:\n  crawlgate crawl https://example.com/ --jsonl crawl.jsonl\n  crawlgate crawl https://example.com/ --max-pages 500 --profile googlebot --profile bingbot --jsonl - | jq .\n  crawlgate crawl https://example.com/ --exclude '*/cart*' --exclude '*[?]sort=*' --jsonl crawl.jsonl\n  crawlgate crawl --urls-from urls.txt --jsonl crawl.jsonl"
)]
pub(crate) struct CrawlCommandArgs {
    /// Where the crawl starts; its scheme, host and port are the crawl's scope. Not with
    /// --urls-from, whose first URL stands for it.
    #[arg(value_name = "URL")]
    url: Option<String>,

    /// Write one JSON line per URL to FILE (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,

    /// No progress display.
    #[arg(long, short = 'q')]
    quiet: bool,

    #[command(flatten)]
    crawl: CrawlArgs,
}

/// The site as JSON lines (`--jsonl`), to standard output or a file.
fn write_lines(path: Option<&Path>, to_stdout: bool, site: &Site) -> anyhow::Result<()> {
    let Some(path) = path else { return Ok(()) };
    if to_stdout {
        let mut out = terminal::stdout(Escapes::Json);
        write_jsonl(site, &mut out)?;
        out.flush()?;
    } else {
        // Temp file + rename: an interrupted write never leaves half the lines.
        atomic::write_atomically(path, |out| Ok(write_jsonl(site, out)?))?;
    }
    Ok(())
}

pub(crate) fn run(args: &CrawlCommandArgs) -> anyhow::Result<ExitCode> {
    let mut start = args.crawl.start(args.url.as_deref(), "")?;
    let mut http = args.crawl.http()?;
    start.take_credentials(&mut http);
    if let Some(path) = args.jsonl.as_ref().filter(|path| path.as_os_str() != "-") {
        atomic::check_output_file(path, "--jsonl")?;
    }
    let mut store = OpenStore::resume(&args.crawl)?;
    let audit_time = OpenStore::audit_time(store.as_ref(), jiff::Timestamp::now());
    let config = args.crawl.config(start, audit_time)?;
    if store.is_none() {
        store = OpenStore::create(&args.crawl, None, audit_time)?;
    }
    if let Some(store) = &mut store {
        store.bind(&config, &http)?;
    }
    let start = config.start_url.clone();
    let progress = live::progress_bar(args.quiet);
    let started = Instant::now();
    let on_event = |event: &CrawlEvent| {
        if let CrawlEvent::Progress(counts) = event {
            progress.set_message(live::progress_message(counts, started.elapsed()));
        }
    };
    let runtime = net::runtime()?;
    let stop = StopHandle::new();
    let after_crawl = live::stop_on_signals(stop.clone());
    let crawled = runtime.block_on(crawl_with_store(
        config,
        &http,
        None,
        store.as_ref().map(|open| &open.store),
        &stop,
        &on_event,
    ));
    let site = OpenStore::abandon_on_error(&mut store, crawled)?;
    progress.finish_and_clear();
    // Parses still running on blocking threads (after Ctrl-C) are not waited for long.
    runtime.shutdown_timeout(Duration::from_secs(1));
    after_crawl.set(quit_cost(store.as_ref(), "the lines"));
    let finished = store.and_then(|store| store.close(&site));
    // No HTTP response from the start URL's host: nothing to write.
    if let Some(message) = start_unreachable_message(&site) {
        FinishedStore::settle(finished, true);
        eprint!("{}", crate::terminal::safe(&message));
        return Ok(exit::code(exit::INCONCLUSIVE));
    }

    let to_stdout = args.jsonl.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let written = write_lines(args.jsonl.as_deref(), to_stdout, &site);
    FinishedStore::settle(finished, written.is_ok());
    written?;
    let summary = summary(&site, started.elapsed(), &http);
    if to_stdout {
        eprint!("{}", crate::terminal::safe(&summary));
    } else {
        super::print_summary(&summary);
    }
    let start_error = start_error_message(&site);
    if let Some(message) = &start_error {
        eprint!("{}", crate::terminal::safe(message));
    }
    if let Some(error) = &site.stats.page_store_write_error {
        super::warn_page_store_refused(error);
    }
    let unread = site.page_store_error().map(str::to_owned);
    if let Some(error) = &unread {
        eprintln!(
            "error: pages could not be read back from the page store ({}); their lines lack \
             what the page said",
            crate::terminal::safe(error)
        );
    }
    let start_failed = start_error.is_some()
        || unread.is_some()
        || site
            .resource(&start)
            .is_some_and(|r| matches!(r.state, ResourceState::Failed { .. }));
    // The process ends here: freeing every page's record one by one would only cost time
    // (measured: about 4% of a 20,000-page crawl).
    std::mem::forget(site);
    Ok(exit::code(if start_failed {
        exit::INCONCLUSIVE
    } else {
        exit::OK
    }))
}
