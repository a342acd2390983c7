//! `--resolve HOST=ADDR[:PORT]` (and `resolve` in crawlgate.toml): a site served on 127.0.0.1 is
//! audited and crawled under a made-up host name, like a new server under the production name
//! before the DNS switch; a malformed entry is a usage error.

use crate::util::{audit_to_json, crawlgate, report_json, scratch, text};
use crawlgate_serve::{ServedSite, SiteServer};
use serde_json::Value;

/// The made-up host name the shop is audited under.
const SHOP: &str = "http://shop.crawlgate.test/";

/// A shop whose links are written with its host name, as a migrated site's are.
fn shop() -> SiteServer {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow: /cart\n")
        .file(
            "index.html",
            "<title>Shop</title><a href='http://shop.crawlgate.test/tents'>Tents</a><a href='/cart'>Cart</a>",
        )
        .file("tents", "<title>Tents</title><a href='/'>Home</a>")
        .file("cart", "<meta name=robots content=noindex><title>Cart</title>");
    SiteServer::start_in_background(site).unwrap()
}

fn report_urls(dir: &std::path::Path) -> (Value, Vec<String>) {
    let report = report_json(dir);
    let urls = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|page| page["url"].as_str().unwrap().to_owned())
        .collect();
    (report, urls)
}

#[test]
fn audit_finds_the_pages_of_a_site_under_a_made_up_host_name() {
    let server = shop();
    let dir = scratch("resolve-audit");
    let resolve = format!("shop.crawlgate.test={}", server.addr());
    let output = audit_to_json(SHOP, &["--resolve", &resolve], &dir);
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with(
            "crawlgate audited http://shop.crawlgate.test/ for googlebot: 3 pages crawled"
        ),
        "{stdout}"
    );
    let (report, urls) = report_urls(&dir);
    for path in ["", "tents", "cart"] {
        assert!(urls.contains(&format!("{SHOP}{path}")), "{path}: {urls:?}");
    }
    assert_eq!(report["robots"][0]["url"], format!("{SHOP}robots.txt"));
    assert!(
        report["findings"].as_array().unwrap().iter().any(|f| {
            f["rule"] == "robots/blocked-noindex" && f["url"] == format!("{SHOP}cart")
        }),
        "{report}"
    );
    let mut requests = server.requests();
    requests.sort();
    assert!(requests.contains(&"/tents".to_owned()), "{requests:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_config_file_resolves_too_and_crawl_takes_the_flag() {
    let server = shop();
    let dir = scratch("resolve-config");
    let config = dir.join("crawlgate.toml");
    // The address's port is the server's; the URL names none.
    std::fs::write(
        &config,
        format!("resolve = [\"shop.crawlgate.test={}\"]\n", server.addr()),
    )
    .unwrap();
    let out = dir.join("report");
    audit_to_json(SHOP, &["--config", config.to_str().unwrap()], &out);
    let (_, urls) = report_urls(&out);
    assert!(urls.contains(&format!("{SHOP}tents")), "{urls:?}");

    // Port 0 (none given): the port in the URL.
    let at_port = format!("http://shop.crawlgate.test:{}/", server.addr().port());
    let output = crawlgate(&[
        "crawl",
        &at_port,
        "--resolve",
        "shop.crawlgate.test=127.0.0.1",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // `/` and `/cart`; the link to `http://shop.crawlgate.test/tents` is another origin (port
    // 80), out of the crawl's scope.
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(": 2 pages")
            && stdout.contains(&format!(
                "robots.txt {}: rules (200)",
                at_port.trim_end_matches('/')
            )),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_resolve_is_a_usage_error() {
    let dir = scratch("resolve-bad");
    let out = dir.join("out");
    for (bad, why) in [
        ("shop.crawlgate.test", "is not HOST=ADDR[:PORT]"),
        ("shop.crawlgate.test=nowhere", "is not an IP address"),
        ("127.0.0.1=10.0.0.5", "is not a host name to resolve"),
        ("shop.crawlgate.test=10.0.0.5:70000", "is not an IP address"),
    ] {
        let audit = ["audit", SHOP, "--quiet", "-o", out.to_str().unwrap()];
        let crawl = ["crawl", SHOP, "--quiet"];
        let robots = ["robots", "lint", "http://shop.crawlgate.test/robots.txt"];
        for command in [&audit[..], &crawl[..], &robots[..]] {
            let mut args = command.to_vec();
            args.extend(["--resolve", bad]);
            let output = crawlgate(&args);
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains("--resolve") && stderr.contains(why),
                "{args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    // In the config file: an error naming the entry.
    let config = dir.join("crawlgate.toml");
    std::fs::write(&config, "resolve = [\"shop.crawlgate.test\"]\n").unwrap();
    let output = crawlgate(&[
        "audit",
        SHOP,
        "--config",
        config.to_str().unwrap(),
        "--quiet",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("resolve: `shop.crawlgate.test` is not HOST=ADDR[:PORT]"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}
