//! A generated site for `benches/crawl.sh` and `benches/audit-memory.sh`. `crawl-bench-site PAGES`
//! serves it with crawlgate's in-process server, prints the start URL on its first line, then
//! serves until killed; `crawl-bench-site PAGES --write DIR ORIGIN` writes its files under DIR
//! instead (absolute URLs on ORIGIN, e.g. `http://127.0.0.1:8088`), for another server (nginx) to
//! serve; `crawl-bench-site PAGES --generate` serves the same pages made on request, held nowhere
//! (a 100,000-page site without 250 MB of files in the server).
//!
//! Page `i` (`/` for 0, else `/p/{i}.html`) is about 2.5 KB of HTML shaped like an article: a
//! head with title, description, canonical, stylesheet and script; a navigation bar; four
//! paragraphs; links to its ten children `10i+1 … 10i+10` (so every page is reachable, breadth first) and to three
//! pseudo-random pages; a footer. Deterministic: the same PAGES gives the same site.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use crawlgate_serve::{ServedSite, SiteServer};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::{Arc, OnceLock};

const PARAGRAPH: &str = "Crawlers read robots.txt, sitemaps and every page's meta robots, \
    X-Robots-Tag and canonical; an audit cross-checks them so that a page blocked by robots.txt \
    never hides a noindex, and a sitemap never lists a URL no crawler may fetch. This paragraph \
    is filler, so that pages have text between their tags.";

fn path(i: usize) -> String {
    if i == 0 {
        "/".to_owned()
    } else {
        format!("/p/{i}.html")
    }
}

fn page(i: usize, pages: usize) -> String {
    let mut html = String::with_capacity(7_000);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Page {i}</title>\n<meta name=\"description\" content=\"Generated page {i}\">\n\
         <meta name=\"viewport\" content=\"width=device-width\">\n\
         <link rel=\"canonical\" href=\"{{{{origin}}}}{}\">\n\
         <link rel=\"stylesheet\" href=\"/site.css\">\n<script src=\"/site.js\" defer></script>\n\
         </head>\n<body>\n<nav><a href=\"/\">Home</a>",
        path(i)
    );
    for section in 1..=5.min(pages - 1) {
        let _ = write!(html, " <a href=\"{}\">Section {section}</a>", path(section));
    }
    let _ = write!(html, "</nav>\n<main>\n<h1>Page {i}</h1>\n");
    for _ in 0..4 {
        let _ = writeln!(html, "<p>{PARAGRAPH}</p>");
    }
    html.push_str("<ul>\n");
    for child in (10 * i + 1)..=(10 * i + 10) {
        if child < pages {
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">Page {child}</a></li>",
                path(child)
            );
        }
    }
    html.push_str("</ul>\n<aside>\n");
    for k in 1..=3usize {
        let related = i.wrapping_mul(7_919).wrapping_add(k * 104_729) % pages;
        let _ = writeln!(html, "<a href=\"{}\">Related {related}</a>", path(related));
    }
    html.push_str("</aside>\n</main>\n<footer><a href=\"/\">Home</a> · generated</footer>\n</body>\n</html>\n");
    html
}

/// The page at request target `target` (`/` or `/p/{i}.html`), `None` for anything else.
fn page_at(target: &str, pages: usize) -> Option<usize> {
    if target == "/" {
        return Some(0);
    }
    let i: usize = target
        .strip_prefix("/p/")?
        .strip_suffix(".html")?
        .parse()
        .ok()?;
    (1..pages).contains(&i).then_some(i)
}

fn usage() -> ! {
    eprintln!(
        "usage: crawl-bench-site PAGES [--write DIR ORIGIN | --generate]   (PAGES at least 2)"
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pages: usize = args
        .first()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n >= 2)
        .unwrap_or_else(|| usage());
    // Before any page is made: a generated site holds none (ten million pages would not fit).
    if args.get(1).map(String::as_str) == Some("--generate") {
        serve_generated(pages);
    }
    let mut files: Vec<(String, Vec<u8>)> = (0..pages)
        .map(|i| {
            let file = if i == 0 {
                "index.html".to_owned()
            } else {
                format!("p/{i}.html")
            };
            (file, page(i, pages).into_bytes())
        })
        .collect();
    files.push((
        "robots.txt".to_owned(),
        b"User-agent: *\nAllow: /\n".to_vec(),
    ));
    files.push(("site.css".to_owned(), b"body { margin: 0 }\n".to_vec()));
    files.push(("site.js".to_owned(), b"void 0;\n".to_vec()));
    if let Some(flag) = args.get(1) {
        let (Some(dir), Some(origin), "--write") = (args.get(2), args.get(3), flag.as_str()) else {
            usage();
        };
        write_site(std::path::Path::new(dir), origin, &files);
        return;
    }
    let site = ServedSite::from_files(files).unwrap_or_else(|error| {
        eprintln!("{error}");
        std::process::exit(1);
    });
    let server = SiteServer::start_in_background(site).unwrap_or_else(|error| {
        eprintln!("{error}");
        std::process::exit(1);
    });
    serve_until_killed(&server);
}

fn serve_until_killed(server: &SiteServer) -> ! {
    println!("{}", server.url("/"));
    let _ = std::io::stdout().flush();
    loop {
        std::thread::park();
    }
}

/// Serve the site's pages made on request (the origin is known once the server listens).
fn serve_generated(pages: usize) -> ! {
    let origin: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let known = Arc::clone(&origin);
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file("site.css", "body { margin: 0 }\n")
        .file("site.js", "void 0;\n")
        .generate("/", move |target| {
            let i = page_at(target, pages)?;
            let origin = known.get().map_or("", String::as_str);
            Some(page(i, pages).replace("{{origin}}", origin).into())
        });
    let server = SiteServer::start_in_background(site).unwrap_or_else(|error| {
        eprintln!("{error}");
        std::process::exit(1);
    });
    let start = server.url("/");
    let _ = origin.set(start.as_str().trim_end_matches('/').to_owned());
    serve_until_killed(&server);
}

/// Write the site's files under `dir`, the origin placeholder filled with `origin`.
fn write_site(dir: &std::path::Path, origin: &str, files: &[(String, Vec<u8>)]) {
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|error| {
                eprintln!("cannot create {}: {error}", parent.display());
                std::process::exit(1);
            });
        }
        let text = String::from_utf8_lossy(bytes).replace("{{origin}}", origin);
        std::fs::write(&path, text).unwrap_or_else(|error| {
            eprintln!("cannot write {}: {error}", path.display());
            std::process::exit(1);
        });
    }
}
