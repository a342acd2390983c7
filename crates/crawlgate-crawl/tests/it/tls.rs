//! Sites served over HTTPS on 127.0.0.1 (the loopback certificate), and the client trusting an
//! extra root certificate: trusted through `HttpOptions::extra_root_certs`, a TLS failure (as
//! data) without it.

use crate::support::{http, serve};
use crawlgate_core::site::FailureKind;
use crawlgate_crawl::{ClientError, Fetcher, HttpOptions};
use crawlgate_serve::{HostNames, LOOPBACK_CA_PEM, ServedSite, SiteGroup, TLS_MARKER};

const MIB: u64 = 1024 * 1024;

fn trusting_the_loopback_ca() -> HttpOptions {
    HttpOptions {
        extra_root_certs: vec![LOOPBACK_CA_PEM.as_bytes().to_vec()],
        ..http()
    }
}

#[tokio::test]
async fn an_https_site_answers_a_client_that_trusts_its_ca() {
    let site = ServedSite::new()
        .file("index.html", "<a href='{{origin}}/a'>a</a>")
        .https();
    let server = serve(site).await;
    let url = server.url("/");
    assert_eq!(url.scheme(), "https");
    assert_eq!(url.host_str(), Some("127.0.0.1"));

    let fetcher = Fetcher::new(&trusting_the_loopback_ca()).unwrap();
    let response = fetcher.fetch_url(&url, 10, Some(MIB)).await;
    let received = response.outcome.expect("a response over HTTPS");
    assert_eq!(received.status, 200);
    // `{{origin}}` is the https origin.
    let origin = format!("https://{}", server.addr());
    assert_eq!(
        received.body,
        format!("<a href='{origin}/a'>a</a>").as_bytes()
    );
    assert_eq!(server.requests(), ["/"]);
}

#[tokio::test]
async fn without_the_ca_the_certificate_is_a_tls_failure_recorded_as_data() {
    let server = serve(ServedSite::new().file("index.html", "<p>").https()).await;
    let response = Fetcher::new(&http())
        .unwrap()
        .fetch_url(&server.url("/"), 10, Some(MIB))
        .await;
    let (kind, message) = response.outcome.unwrap_err();
    assert_eq!(kind, FailureKind::Tls, "{message}");
    assert!(message.contains("certificate"), "{message}");
    // The handshake failed: no request reached the site.
    assert!(server.requests().is_empty());
}

#[test]
fn a_group_serves_a_site_marked_tls_over_https_and_names_it_so() {
    let secure = ServedSite::from_files([
        (TLS_MARKER, &b""[..]),
        ("index.html", &b"<a href='{{origin:www}}/'>shop</a>"[..]),
    ])
    .unwrap();
    let www = ServedSite::new().file("index.html", "<a href='{{origin:secure}}/'>account</a>");
    let group =
        SiteGroup::start_in_background([("secure".to_owned(), secure), ("www".to_owned(), www)])
            .unwrap();
    assert!(group.has_https());
    let secure_url = group.url("secure", "/").unwrap();
    let www_url = group.url("www", "/").unwrap();
    assert_eq!(secure_url.scheme(), "https");
    assert_eq!(www_url.scheme(), "http");
    assert_eq!(
        group.fill("{{origin:secure}}"),
        format!("https://{}", group.addr("secure").unwrap())
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let fetcher = Fetcher::new(&trusting_the_loopback_ca()).unwrap();
    let body = |url| {
        let response = runtime.block_on(fetcher.fetch_url(url, 10, Some(MIB)));
        String::from_utf8(response.outcome.unwrap().body).unwrap()
    };
    assert_eq!(
        body(&www_url),
        format!("<a href='{secure_url}'>account</a>")
    );
    assert_eq!(body(&secure_url), format!("<a href='{www_url}'>shop</a>"));
    // The marker itself is not served.
    let marker = secure_url.join(TLS_MARKER).unwrap();
    let response = runtime.block_on(fetcher.fetch_url(&marker, 10, Some(MIB)));
    assert_eq!(response.outcome.unwrap().status, 404);
}

#[test]
fn a_garbage_root_certificate_is_a_client_error() {
    let options = HttpOptions {
        extra_root_certs: vec![b"not a certificate".to_vec()],
        ..http()
    };
    let error = Fetcher::new(&options).unwrap_err();
    assert!(matches!(error, ClientError::RootCertificate(_)), "{error}");
}

#[test]
fn raw_routes_are_not_served_over_https() {
    let site = ServedSite::new()
        .route(crawlgate_serve::Route::new("/liar").content_length(10))
        .https();
    let error = crawlgate_serve::SiteServer::start_in_background(site).unwrap_err();
    assert!(error.to_string().contains("plain HTTP"), "{error}");
}

#[test]
fn a_named_https_site_is_verified_under_its_host_name() {
    let secure = ServedSite::from_files([
        (TLS_MARKER, &b""[..]),
        ("index.html", &b"<a href='{{origin:www}}/'>shop</a>"[..]),
    ])
    .unwrap();
    let www = ServedSite::new().file("index.html", "<p>");
    let group = SiteGroup::start_named_in_background(
        [("secure".to_owned(), secure), ("www".to_owned(), www)],
        &HostNames::new("northwind.test"),
    )
    .unwrap();
    let secure_url = group.url("secure", "/").unwrap();
    assert_eq!(secure_url.as_str(), "https://secure.northwind.test/");
    let secure_addr = group.addr("secure").unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let fetch = |resolve: Vec<(String, std::net::SocketAddr)>, url: &url::Url| {
        let options = HttpOptions {
            resolve,
            ..trusting_the_loopback_ca()
        };
        let fetcher = Fetcher::new(&options).unwrap();
        runtime
            .block_on(fetcher.fetch_url(url, 10, Some(MIB)))
            .outcome
    };
    // The certificate names secure.northwind.test.
    let received = fetch(group.resolve(), &secure_url).expect("a response over HTTPS");
    assert_eq!(
        received.body,
        b"<a href='http://www.northwind.test/'>shop</a>"
    );
    // The same server under a name its certificate does not carry: a TLS failure. Resolving
    // changes where the client connects, never the name it checks.
    let other = url::Url::parse("https://shop.northwind.test/").unwrap();
    let (kind, message) = fetch(
        vec![("shop.northwind.test".to_owned(), secure_addr)],
        &other,
    )
    .unwrap_err();
    assert_eq!(kind, FailureKind::Tls, "{message}");
    assert!(message.contains("not valid for name"), "{message}");
}
