//! What scripts do to a page, as the rendered DOM shows it.

use crate::{Gate, options, outcome_of, renderer, run};
use crawlgate_render::{RenderOptions, RenderOutcome, RequestOutcome};
use crawlgate_serve::{ServedSite, SiteServer};
use std::time::Duration;

const ADD_NOINDEX: &str = r"<!DOCTYPE html><html><head><title>a</title><script>
const m = document.createElement('meta'); m.name = 'robots'; m.content = 'noindex';
document.head.appendChild(m);
</script></head><body><p>Added a noindex.</p></body></html>";

const REMOVE_NOINDEX: &str = r#"<!DOCTYPE html><html><head><meta name="robots" content="noindex">
<script>document.querySelector('meta[name=robots]').remove();</script></head>
<body><p>Removed the noindex.</p></body></html>"#;

const CANONICAL: &str = r#"<!DOCTYPE html><html><head><link rel="canonical" href="/original">
<script>document.querySelector('link[rel=canonical]').setAttribute('href', '/changed');</script>
</head><body><p>Changed the canonical.</p></body></html>"#;

const LINKS: &str = r"<!DOCTYPE html><html><head></head><body><p>Links below.</p><script>
for (const n of [1, 2, 3]) {
  const a = document.createElement('a'); a.href = '/added-' + n; a.textContent = 'link ' + n;
  document.body.appendChild(a);
}
</script></body></html>";

const API: &str = r#"<!DOCTYPE html><html><head></head><body><p id="out">loading</p><script>
fetch('/api/data.json').then(r => r.json()).then(d => {
  document.getElementById('out').textContent = d.message;
});
</script></body></html>"#;

const APP: &str = r#"<!DOCTYPE html><html><head><title>Shop</title></head>
<body><div id="root"></div><script src="/static/app.js"></script></body></html>"#;

const APP_JS: &str = r#"document.getElementById('root').innerHTML =
  '<h1>Northwind shop</h1><p>Fresh produce, delivered.</p><a href="/products">Products</a>';"#;

#[test]
fn scripts_change_what_the_dom_says() {
    run(async {
        let site = ServedSite::new()
            .file("add-noindex.html", ADD_NOINDEX)
            .file("remove-noindex.html", REMOVE_NOINDEX)
            .file("canonical.html", CANONICAL)
            .file("links.html", LINKS)
            .file("api.html", API)
            .file("api/data.json", r#"{"message": "from the API"}"#)
            .file("app.html", APP)
            .file("static/app.js", APP_JS);
        let server = SiteServer::start(site).await.unwrap();
        let Some(browser) = renderer(options()).await else {
            return;
        };
        let gate = Gate::default();
        let pages = [
            "/add-noindex.html",
            "/remove-noindex.html",
            "/canonical.html",
            "/links.html",
            "/api.html",
            "/app.html",
        ];
        let urls: Vec<_> = pages.iter().map(|path| server.url(path)).collect();
        let rendered =
            futures_util::future::join_all(urls.iter().map(|url| browser.render(url, None, &gate)))
                .await;
        for (page, rendered) in pages.iter().zip(&rendered) {
            assert_eq!(
                rendered.outcome,
                RenderOutcome::Settled,
                "{page}: {rendered:?}"
            );
            assert!(rendered.errors.is_empty(), "{page}: {:?}", rendered.errors);
            assert!(rendered.dom.starts_with("<!DOCTYPE html><html>"), "{page}");
            assert_eq!(rendered.final_url, server.url(page));
        }
        let [added, removed, canonical, links, api, app] = &rendered[..] else {
            unreachable!()
        };
        assert!(
            added
                .dom
                .contains(r#"<meta name="robots" content="noindex">"#)
        );
        assert!(!removed.dom.contains("<meta"), "{}", removed.dom);
        assert!(
            canonical
                .dom
                .contains(r#"<link rel="canonical" href="/changed">"#)
        );
        for n in 1..=3 {
            assert!(links.dom.contains(&format!(r#"<a href="/added-{n}">"#)));
        }
        assert!(
            api.dom.contains(r#"<p id="out">from the API</p>"#),
            "{}",
            api.dom
        );
        let fetched = api
            .requests
            .iter()
            .find(|request| request.url.path() == "/api/data.json")
            .expect("the API request is recorded");
        // Fetch.requestPaused names a `fetch()` request `XHR` (Network's events say `Fetch`).
        assert!(
            matches!(fetched.resource_type.as_str(), "XHR" | "Fetch"),
            "{fetched:?}"
        );
        assert_eq!(fetched.outcome, RequestOutcome::Served { status: 200 });
        assert!(app.dom.contains("<h1>Northwind shop</h1>"), "{}", app.dom);
        assert!(app.dom.contains(r#"<a href="/products">"#));
        assert_eq!(
            outcome_of(app, "/static/app.js"),
            Some(&RequestOutcome::Served { status: 200 })
        );
        // The main document, then the script, each asked of the gate once.
        let app_requests: Vec<_> = app
            .requests
            .iter()
            .map(|r| (r.url.path(), r.resource_type.as_str()))
            .collect();
        assert_eq!(
            app_requests,
            [("/app.html", "Document"), ("/static/app.js", "Script")]
        );
        // Nothing but the loopback server was asked for: the browser's own traffic is off.
        for asked in gate.asked() {
            assert_eq!(asked.url.host_str(), Some("127.0.0.1"), "{asked:?}");
        }
    });
}

const WITH_SCRIPT: &str = r#"<!DOCTYPE html><html><head><title>Blocked</title></head><body>
<p>Short.</p><div id="root"></div><script src="/blocked/app.js"></script></body></html>"#;

const BLOCKED_JS: &str = r"document.getElementById('root').textContent =
  'Rendered by a script the gate may block, with enough words to count.';
  window.__ran = true;";

#[test]
fn a_blocked_script_is_recorded_and_does_not_run() {
    run(async {
        let site = ServedSite::new()
            .file("page.html", WITH_SCRIPT)
            .file("blocked/app.js", BLOCKED_JS);
        let server = SiteServer::start(site).await.unwrap();
        let Some(browser) = renderer(options()).await else {
            return;
        };
        let url = server.url("/page.html");
        let open = Gate::default();
        let closed = Gate::blocking(&["/blocked/"]);
        let (allowed, blocked) = tokio::join!(
            browser.render(&url, None, &open),
            browser.render(&url, None, &closed)
        );
        assert_eq!(allowed.outcome, RenderOutcome::Settled);
        assert_eq!(blocked.outcome, RenderOutcome::Settled);
        assert!(allowed.dom.contains("Rendered by a script"));
        assert!(
            !blocked.dom.contains("Rendered by a script"),
            "{}",
            blocked.dom
        );
        assert_eq!(
            outcome_of(&blocked, "/blocked/app.js"),
            Some(&RequestOutcome::Blocked {
                reason: "out of scope".to_owned()
            })
        );
        assert!(
            blocked.text_length < allowed.text_length,
            "{} < {}",
            blocked.text_length,
            allowed.text_length
        );
        // Blocked in the browser: the server saw the script requested once, by the open page.
        let scripts = server
            .requests()
            .iter()
            .filter(|target| target.as_str() == "/blocked/app.js")
            .count();
        assert_eq!(scripts, 1);
    });
}

const THROWS: &str = r"<!DOCTYPE html><html><head><script>
document.addEventListener('DOMContentLoaded', () => { document.body.innerHTML = ''; });
throw new TypeError('boom: the app failed');
</script></head><body><p>Server text.</p><script>console.error('logged', 42);
document.addEventListener('DOMContentLoaded', () => { undefinedFunction(); });
</script></body></html>";

const ENDLESS: &str = r"<!DOCTYPE html><html><head></head><body><p>Before the loop.</p>
<script>while (true) {}</script><p>After the loop.</p></body></html>";

#[test]
fn errors_endless_scripts_and_failed_navigations_are_data() {
    run(async {
        let site = ServedSite::new()
            .file("throws.html", THROWS)
            .file("endless.html", ENDLESS);
        let server = SiteServer::start(site).await.unwrap();
        let budget = Duration::from_secs(2);
        let Some(browser) = renderer(RenderOptions {
            page_budget: budget,
            // All three at once: `elapsed` counts the wait for a slot.
            concurrency: 3,
            ..options()
        })
        .await
        else {
            return;
        };
        let gate = Gate::default();
        // A port nothing listens on: bound and dropped.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let refused =
            url::Url::parse(&format!("http://{}/", closed.local_addr().unwrap())).unwrap();
        drop(closed);
        let (throws_url, endless_url) = (server.url("/throws.html"), server.url("/endless.html"));
        let (throws, endless, failed) = tokio::join!(
            browser.render(&throws_url, None, &gate),
            browser.render(&endless_url, None, &gate),
            browser.render(&refused, None, &gate),
        );

        assert_eq!(throws.outcome, RenderOutcome::Settled);
        assert_eq!(throws.text_length, 0, "{}", throws.dom);
        assert!(throws.dom.contains("<body></body>"), "{}", throws.dom);
        // Exceptions and console lines arrive on separate event streams: order between them is
        // not kept.
        let errors = &throws.errors;
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(
            errors
                .iter()
                .any(|e| e.contains("TypeError: boom: the app failed")),
            "{errors:?}"
        );
        assert!(
            errors.iter().any(|e| e == "console.error: logged 42"),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("undefinedFunction is not defined")),
            "{errors:?}"
        );

        // The loop holds the page's thread: the budget ends the wait, the loop is stopped and
        // the DOM read as the parser left it (before the script's end). The margin: opening
        // the page (0.3 s idle, up to 2 s with the suite's other browsers on two cores), one
        // second of DOM read before the loop is stopped, the read, closing.
        assert_eq!(endless.outcome, RenderOutcome::TimedOut, "{endless:?}");
        assert!(endless.dom.contains("Before the loop."), "{}", endless.dom);
        assert!(
            endless.elapsed < budget + Duration::from_secs(4),
            "{:?}",
            endless.elapsed
        );

        let RenderOutcome::Failed { reason } = &failed.outcome else {
            panic!("{failed:?}");
        };
        assert!(reason.contains("ERR_CONNECTION_REFUSED"), "{reason}");
        assert!(failed.dom.is_empty());
    });
}
