//! Access: a staging site behind basic authentication, a cookie and a token header is crawled
//! fully (robots.txt, sitemaps, pages, assets, in-scope redirects), and a third-party host in
//! the same crawl never receives any of them.

use crate::support::{config, http, run, serve, status};
use crawlgate_core::site::RobotsEffect;
use crawlgate_crawl::{Access, HttpOptions, fetch_robots};
use crawlgate_serve::{Route, ServedSite, SiteServer};
use url::Url;

const PASSWORD: &str = "s3cret";
/// `alice:s3cret`, base64.
const BASIC: &str = "Basic YWxpY2U6czNjcmV0";
const TOKEN: &str = "t0ps3cret-token";
const COOKIE: &str = "session=c00kie-value";

fn access() -> Access {
    Access {
        headers: vec![Access::header(&format!("X-Staging-Token: {TOKEN}")).unwrap()],
        cookie: Some(Access::cookie(COOKIE).unwrap()),
        basic_auth: Some(Access::basic_auth(&format!("alice:{PASSWORD}")).unwrap()),
    }
}

/// A third-party host: an image, a stylesheet, and a page an in-scope URL redirects to.
async fn third_party() -> SiteServer {
    serve(
        ServedSite::new()
            .file("logo.png", "png")
            .file("style.css", "body{}")
            .file("landing", "<html><title>elsewhere</title></html>"),
    )
    .await
}

/// A staging site that answers only requests carrying the three secrets.
fn staging(other: &Url) -> ServedSite {
    let asset = |path: &str| other.join(path).unwrap();
    ServedSite::new()
        .file("robots.txt", "User-agent: *\nAllow: /\nSitemap: {{origin}}/sitemap.xml\n")
        .file(
            "sitemap.xml",
            "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
             <url><loc>{{origin}}/listed</loc></url></urlset>",
        )
        .file(
            "index.html",
            format!(
                "<html><head><link rel=stylesheet href=\"{}\"><link rel=stylesheet href=\"/own.css\"></head>\
                 <body><img src=\"{}\"><a href=\"/old\">old</a><a href=\"/out\">out</a>\
                 <a href=\"{}\">partner</a></body></html>",
                asset("/style.css"),
                asset("/logo.png"),
                asset("/landing"),
            ),
        )
        .file("own.css", "body{}")
        .file("new", "<html><title>new</title></html>")
        .file("listed", "<html><title>listed</title></html>")
        .route(Route::redirect("/old", 301, "/new"))
        .route(Route::redirect("/out", 302, asset("/landing").as_str()))
        .require_header("authorization", BASIC)
        .require_header("cookie", COOKIE)
        .require_header("x-staging-token", TOKEN)
}

/// Whether any request `server` received carried a secret.
fn saw_a_secret(server: &SiteServer) -> bool {
    server
        .request_headers()
        .iter()
        .flatten()
        .any(|(name, value)| {
            name == "authorization"
                || name == "cookie"
                || name == "x-staging-token"
                || value.contains(PASSWORD)
                || value.contains(TOKEN)
        })
}

#[tokio::test]
async fn a_staging_site_is_crawled_with_its_secrets_and_a_third_party_never_sees_them() {
    let other = third_party().await;
    let server = serve(staging(&other.url("/"))).await;
    let http = HttpOptions {
        access: access(),
        ..http()
    };
    let (site, _) = run(config(server.url("/")), &http).await;
    let robots = site.robots_for(&site.start_url).unwrap();
    assert_eq!(robots.effect, RobotsEffect::Rules);
    assert_eq!(site.stats.sitemaps_fetched, 1);
    for path in ["/", "/new", "/listed", "/own.css"] {
        assert_eq!(status(&site, &server.url(path)), 200, "{path}");
    }
    // Every request to the site carried the three, so none was refused.
    assert!(
        server.request_headers().iter().all(|lines| lines
            .iter()
            .any(|(n, v)| n == "authorization" && v == BASIC)),
        "{:?}",
        server.requests()
    );
    // The third party was asked (assets, the redirect target), without any of them.
    assert!(other.requests().len() >= 2, "{:?}", other.requests());
    assert!(!saw_a_secret(&other), "{:?}", other.request_headers());
}

#[tokio::test]
async fn without_the_secrets_the_staging_site_refuses_everything() {
    let other = third_party().await;
    let server = serve(staging(&other.url("/"))).await;
    let (site, _) = run(config(server.url("/")), &http()).await;
    assert_eq!(status(&site, &server.url("/")), 401);
}

#[tokio::test]
async fn credentials_in_the_start_url_become_basic_auth_and_leave_every_url() {
    let other = third_party().await;
    let server = serve(
        staging(&other.url("/")), // the cookie and token are still needed
    )
    .await;
    let mut start = server.url("/");
    start.set_username("alice").unwrap();
    start.set_password(Some(PASSWORD)).unwrap();
    let http = HttpOptions {
        access: Access {
            basic_auth: None,
            ..access()
        },
        ..http()
    };
    let (site, _) = run(config(start), &http).await;
    assert_eq!(site.start_url, server.url("/"));
    assert_eq!(status(&site, &server.url("/new")), 200);
    for resource in site.resources() {
        assert!(
            !resource.url.as_str().contains(PASSWORD),
            "{}",
            resource.url
        );
    }
    assert!(!saw_a_secret(&other));
}

#[tokio::test]
async fn a_single_robots_txt_fetch_sends_the_secrets_to_its_origin() {
    let other = third_party().await;
    let server = serve(staging(&other.url("/"))).await;
    let http = HttpOptions {
        access: access(),
        ..http()
    };
    let robots = fetch_robots(&server.url("/"), &http).await;
    assert_eq!(robots.effect, RobotsEffect::Rules);
    let robots = fetch_robots(&server.url("/"), &crate::support::http()).await;
    assert_eq!(robots.status(), Some(401));
}

#[test]
fn access_settings_are_checked_and_never_quoted() {
    assert!(Access::header("X-Token: abc").is_ok());
    for bad in [
        "no colon secretvalue",
        "Bad Name: secretvalue",
        "X-Token: secret\nvalue",
        "Host: secretvalue.example",
        "User-Agent: secretvalue",
    ] {
        let error = Access::header(bad).unwrap_err().to_string();
        assert!(!error.contains("secretvalue"), "{error}");
    }
    assert!(Access::basic_auth("alice").is_err());
    let auth = Access::basic_auth("alice:pa:ss").unwrap();
    assert_eq!(
        (auth.user.as_str(), auth.password.as_str()),
        ("alice", "pa:ss")
    );
    let shown = format!("{:?}", access());
    assert!(
        !shown.contains(PASSWORD) && !shown.contains(TOKEN) && !shown.contains("c00kie"),
        "{shown}"
    );
    assert_eq!(
        access().describe(),
        "basic auth, cookie, header X-Staging-Token"
    );
}

#[tokio::test]
async fn in_list_mode_the_listed_origins_get_the_secrets_too() {
    let other = third_party().await;
    let first = serve(staging(&other.url("/"))).await;
    let second = serve(staging(&other.url("/"))).await;
    let mut config = config(first.url("/new"));
    config.mode = crawlgate_core::crawl::CrawlMode::List;
    config.listed = vec![first.url("/new"), second.url("/listed")];
    let http = HttpOptions {
        access: access(),
        ..http()
    };
    let (site, _) = run(config, &http).await;
    assert_eq!(status(&site, &first.url("/new")), 200);
    assert_eq!(status(&site, &second.url("/listed")), 200);
    assert!(!saw_a_secret(&other));
}
