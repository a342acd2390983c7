//! `--ca-cert FILE` (and `ca_certs` in crawlgate.toml): a site behind a CA the system does not
//! know, served over HTTPS on 127.0.0.1, is crawled and audited once its root certificate is
//! given; a missing or garbage file stops the command with an error naming it.

use crate::util::{audit_to_json, crawlgate, scratch, text};
use crawlgate_serve::{LOOPBACK_CA_PEM, ServedSite, SiteServer};

/// A small site served over HTTPS with the loopback certificate.
fn staging_site() -> SiteServer {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\n")
        .file(
            "index.html",
            "<title>Staging</title><a href='/about'>About</a>",
        )
        .file("about", "<title>About</title>")
        .https();
    SiteServer::start_in_background(site).unwrap()
}

#[test]
fn crawl_trusts_the_given_ca_and_fails_on_tls_without_it() {
    let server = staging_site();
    let dir = scratch("ca-cert-crawl");
    let ca = dir.join("internal-ca.pem");
    std::fs::write(&ca, LOOPBACK_CA_PEM).unwrap();
    let start = server.url("/");

    let trusted = crawlgate(&[
        "crawl",
        start.as_str(),
        "--quiet",
        "--ca-cert",
        ca.to_str().unwrap(),
    ]);
    assert_eq!(trusted.status.code(), Some(0), "{}", text(&trusted.stderr));
    assert!(
        text(&trusted.stdout).contains("2 pages"),
        "{}",
        text(&trusted.stdout)
    );

    // Without it the start page is a TLS failure: inconclusive, the certificate problem named.
    let untrusted = crawlgate(&["crawl", start.as_str(), "--quiet", "--jsonl", "-"]);
    let stderr = text(&untrusted.stderr);
    assert_eq!(untrusted.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "crawlgate: cannot reach the start URL {start}: TLS failed: "
        )) && stderr.contains("unknown authority")
            && stderr.contains("--ca-cert FILE"),
        "{stderr}"
    );
    assert!(
        text(&untrusted.stdout).is_empty(),
        "{}",
        text(&untrusted.stdout)
    );
    let dir_out = dir.join("untrusted-report");
    let audit = crawlgate(&[
        "audit",
        start.as_str(),
        "--quiet",
        "-o",
        dir_out.to_str().unwrap(),
    ]);
    assert_eq!(audit.status.code(), Some(3), "{}", text(&audit.stderr));
    assert!(
        text(&audit.stderr).contains("TLS failed: "),
        "{}",
        text(&audit.stderr)
    );
    assert!(
        !dir_out.exists(),
        "no report for an audit that reached nothing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn audit_reads_ca_certs_from_the_config_file_relative_to_it() {
    let server = staging_site();
    let dir = scratch("ca-cert-config");
    std::fs::create_dir_all(dir.join("certs")).unwrap();
    std::fs::write(dir.join("certs/ca.pem"), LOOPBACK_CA_PEM).unwrap();
    let config = dir.join("crawlgate.toml");
    std::fs::write(&config, "ca_certs = [\"certs/ca.pem\"]\n").unwrap();
    let out = dir.join("report");
    let config = ["--config", config.to_str().unwrap()];
    let output = audit_to_json(server.url("/").as_str(), &config, &out);
    assert!(
        text(&output.stdout).contains("2 pages crawled"),
        "{}",
        text(&output.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_or_garbage_ca_cert_is_an_error_naming_the_file() {
    let dir = scratch("ca-cert-bad");
    let missing = dir.join("missing.pem");
    let garbage = dir.join("garbage.pem");
    std::fs::write(&garbage, "this is not a certificate\n").unwrap();
    let key_only = dir.join("key.pem");
    std::fs::write(
        &key_only,
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    for (file, why) in [
        (&missing, "No such file"),
        (&garbage, "not a usable root certificate"),
        (&key_only, "BEGIN CERTIFICATE"),
    ] {
        let file = file.to_str().unwrap();
        let out = dir.join("out");
        let audit = ["audit", "--demo", "--quiet", "-o", out.to_str().unwrap()];
        let crawl = ["crawl", "http://127.0.0.1:9/", "--quiet"];
        for command in [&audit[..], &crawl[..]] {
            let mut args = command.to_vec();
            args.extend(["--ca-cert", file]);
            let output = crawlgate(&args);
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("error: cannot use the CA certificate `")
                    && stderr.contains(file)
                    && stderr.contains(why),
                "{args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    assert!(!dir.join("out").exists(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn robots_and_sitemap_commands_fetch_over_https_with_the_ca() {
    let site = ServedSite::new()
        .file("robots.txt", "User-agent: *\nDisallow: /private/\n")
        .file(
            "sitemap.xml",
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>{{origin}}/a</loc></url></urlset>",
        )
        .https();
    let server = SiteServer::start_in_background(site).unwrap();
    let dir = scratch("ca-cert-single");
    let ca = dir.join("ca.pem");
    std::fs::write(&ca, LOOPBACK_CA_PEM).unwrap();
    let ca = ca.to_str().unwrap();
    let robots = server.url("/robots.txt");

    let test = |extra: &[&str]| {
        let mut args = vec![
            "robots",
            "test",
            robots.as_str(),
            "-u",
            "Googlebot",
            "/public",
        ];
        args.extend_from_slice(extra);
        crawlgate(&args)
    };
    let trusted = test(&["--ca-cert", ca]);
    assert_eq!(trusted.status.code(), Some(0), "{}", text(&trusted.stderr));
    assert!(
        text(&trusted.stdout).starts_with("allowed\t"),
        "{}",
        text(&trusted.stdout)
    );
    // Without the CA the robots.txt is unreachable (a TLS failure): everything is disallowed.
    let untrusted = test(&[]);
    assert!(
        text(&untrusted.stdout).starts_with("disallowed\t"),
        "{}",
        text(&untrusted.stdout)
    );

    let lint = crawlgate(&["robots", "lint", robots.as_str(), "--ca-cert", ca]);
    assert_eq!(lint.status.code(), Some(0), "{}", text(&lint.stderr));

    let sitemap = server.url("/sitemap.xml");
    let check = crawlgate(&[
        "sitemap",
        "check",
        sitemap.as_str(),
        "--urls",
        "--ca-cert",
        ca,
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert_eq!(text(&check.stdout).trim(), server.url("/a").as_str());
    let _ = std::fs::remove_dir_all(&dir);
}
