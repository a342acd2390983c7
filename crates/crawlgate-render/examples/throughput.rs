//! Rendering throughput: N simple pages (a script adds links, a stylesheet and a script file
//! each) from a loopback server at the default concurrency; prints pages/s and the browser's
//! memory (RSS and PSS summed over the browser and every process under it, from /proc, idle,
//! at the peak, sampled every 100 ms, and after the run).
//!
//! `cargo run --release -p crawlgate-render --example throughput [-- N]` (N: 50).

use crawlgate_render::{
    Decision, GateRequest, RenderOptions, RenderOutcome, Renderer, RequestGate,
};
use crawlgate_serve::{ServedSite, SiteServer};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

struct AllowAll;

impl RequestGate for AllowAll {
    fn decide<'a>(
        &'a self,
        _request: &'a GateRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async { Decision::allow() })
    }
}

/// Memory of `root` and every process under it, in KiB: (RSS summed, which counts pages the
/// processes share once per process; PSS summed, which shares them out; process count).
fn tree_memory_kib(root: u32) -> (u64, u64, usize) {
    let mut parents = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return (0, 0, 0);
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let parent = stat[close + 2..]
            .split(' ')
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0);
        parents.push((pid, parent));
    }
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    let field = |file: &str, name: &str| -> u64 {
        tree.iter()
            .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/{file}")).ok())
            .filter_map(|text| {
                text.lines()
                    .find_map(|line| line.strip_prefix(name))
                    .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .sum()
    };
    (
        field("status", "VmRSS:"),
        field("smaps_rollup", "Pss:"),
        tree.len(),
    )
}

#[tokio::main]
#[allow(clippy::print_stdout, reason = "a benchmark prints its figures")]
async fn main() {
    let pages: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(50);
    let site = ServedSite::new()
        .file("style.css", "body { font-family: sans-serif; } a { color: teal; }")
        .file(
            "app.js",
            "const p = document.createElement('p'); p.textContent = 'Rendered.'; document.body.appendChild(p);",
        )
        .generate("/page/", |path| {
            Some(
                format!(
                    "<!DOCTYPE html><html><head><title>{path}</title><link rel=stylesheet href=/style.css>\
                     </head><body><h1>{path}</h1><script>for (let i = 0; i < 10; i++) {{ const a = \
                     document.createElement('a'); a.href = '/page/' + i; a.textContent = 'p' + i; \
                     document.body.appendChild(a); }}</script><script src=/app.js></script></body></html>"
                )
                .into(),
            )
        });
    let server = SiteServer::start(site).await.expect("the server starts");
    let started = Instant::now();
    let renderer = Arc::new(
        Renderer::launch(RenderOptions::default())
            .await
            .expect("Chromium starts"),
    );
    let launched = started.elapsed();
    let pid = renderer.pid().expect("the browser's pid");
    let idle = tree_memory_kib(pid);
    let peak = Arc::new((AtomicU64::new(0), AtomicU64::new(0)));
    let sampler = {
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                let (rss, pss, _) = tree_memory_kib(pid);
                peak.0.fetch_max(rss, Ordering::Relaxed);
                peak.1.fetch_max(pss, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let started = Instant::now();
    let tasks: Vec<_> = (0..pages)
        .map(|i| {
            let renderer = Arc::clone(&renderer);
            let url = server.url(&format!("/page/{i}"));
            tokio::spawn(async move { renderer.render(&url, None, &AllowAll).await })
        })
        .collect();
    let mut settled = 0;
    let mut slowest = Duration::ZERO;
    for task in tasks {
        let page = task.await.expect("the render task");
        assert!(page.dom.contains("Rendered."), "{page:?}");
        if page.outcome == RenderOutcome::Settled {
            settled += 1;
        }
        slowest = slowest.max(page.elapsed);
    }
    let elapsed = started.elapsed();
    sampler.abort();
    let after = tree_memory_kib(pid);
    #[allow(clippy::cast_precision_loss, reason = "a page count")]
    let rate = pages as f64 / elapsed.as_secs_f64();
    println!(
        "{pages} pages in {:.2} s: {rate:.1} pages/s at concurrency {} ({settled} settled; \
         slowest {:.2} s incl. the wait for a slot; launch {:.2} s)",
        elapsed.as_secs_f64(),
        renderer.options().concurrency,
        slowest.as_secs_f64(),
        launched.as_secs_f64(),
    );
    println!(
        "browser memory, all its processes: RSS summed {} MiB idle, {} MiB peak, {} MiB after; \
         PSS summed {} MiB idle, {} MiB peak, {} MiB after; processes {} idle, {} after",
        idle.0 / 1024,
        peak.0.load(Ordering::Relaxed) / 1024,
        after.0 / 1024,
        idle.1 / 1024,
        peak.1.load(Ordering::Relaxed) / 1024,
        after.1 / 1024,
        idle.2,
        after.2,
    );
}
