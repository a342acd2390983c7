//! The requests a page makes: the main document from the crawler's bytes, the gate's headers,
//! the per-page cap.

use crate::{Gate, options, outcome_of, renderer, run};
use crawlgate_render::{Document, RenderOptions, RenderOutcome, RequestOutcome};
use crawlgate_serve::{ServedSite, SiteServer};

#[test]
fn the_main_document_comes_from_the_given_bytes_and_headers_reach_the_server() {
    run(async {
        // What the server would answer now differs from what the crawler read: the DOM must be
        // built from the crawler's bytes.
        let site = ServedSite::new()
            .file(
                "index.html",
                "<!DOCTYPE html><p>The server's current page.</p>",
            )
            .file("static/app.js", "document.body.dataset.ran = 'yes';");
        let server = SiteServer::start(site).await.unwrap();
        let Some(browser) = renderer(options()).await else {
            return;
        };
        let document = Document {
            status: 200,
            headers: vec![
                (
                    "Content-Type".to_owned(),
                    "text/html; charset=utf-8".to_owned(),
                ),
                // Framing of the original response: must not reach the browser (the body is
                // the decoded one, of another length).
                ("Content-Encoding".to_owned(), "gzip".to_owned()),
                ("Content-Length".to_owned(), "3".to_owned()),
            ],
            body: "<!DOCTYPE html><html><head></head><body><p>The page the crawler read.</p>\
                   <script src=\"/static/app.js\"></script></body></html>"
                .into(),
        };
        let gate = Gate {
            headers: vec![("X-Crawlgate-Test".to_owned(), "secret-value".to_owned())],
            ..Gate::default()
        };
        let url = server.url("/");
        let rendered = browser.render(&url, Some(&document), &gate).await;
        assert_eq!(rendered.outcome, RenderOutcome::Settled, "{rendered:?}");
        assert!(
            rendered.dom.contains("The page the crawler read."),
            "{}",
            rendered.dom
        );
        assert!(
            rendered.dom.contains(r#"<body data-ran="yes">"#),
            "{}",
            rendered.dom
        );
        assert_eq!(
            outcome_of(&rendered, "/"),
            Some(&RequestOutcome::Served { status: 200 })
        );
        // The gate is not asked for the document it was given, and the server never saw it.
        let asked: Vec<_> = gate
            .asked()
            .iter()
            .map(|r| r.url.path().to_owned())
            .collect();
        assert_eq!(asked, ["/static/app.js"]);
        assert_eq!(server.requests(), ["/static/app.js"]);
        let headers = &server.request_headers()[0];
        assert!(
            headers.contains(&("x-crawlgate-test".to_owned(), "secret-value".to_owned())),
            "{headers:?}"
        );
        // The browser's own headers are kept beside the gate's.
        assert!(
            headers.iter().any(
                |(name, value)| name == "user-agent" && value == &browser.options().user_agent
            )
        );
    });
}

#[test]
fn a_thousand_requests_a_huge_dom_and_a_flood_of_errors_are_cut() {
    run(async {
        let page = r"<!DOCTYPE html><html><body><p>Many.</p><script>
          for (let i = 0; i < 1000; i++) { fetch('/item/' + i).catch(() => {}); }
        </script></body></html>";
        // 200 KB of DOM, a multi-byte character every few bytes; 100 errors of 2 KB each.
        let huge = r"<!DOCTYPE html><html><body><script>
          document.body.textContent = 'é€✓ '.repeat(20000);
          for (let i = 0; i < 100; i++) { console.error('é'.repeat(1000) + i); }
        </script></body></html>";
        let site = ServedSite::new()
            .file("many.html", page)
            .file("huge.html", huge)
            .generate("/item/", |_| Some(bytes::Bytes::from_static(b"{}")));
        let server = SiteServer::start(site).await.unwrap();
        let Some(browser) = renderer(RenderOptions {
            max_requests_per_page: 100,
            max_dom_bytes: 10_001,
            ..options()
        })
        .await
        else {
            return;
        };
        let gate = Gate::default();
        let rendered = browser.render(&server.url("/many.html"), None, &gate).await;
        assert!(rendered.requests_cut);
        assert_eq!(rendered.requests.len(), 100);
        assert_eq!(gate.asked().len(), 100);
        // The cut requests were failed in the browser: the server saw the first hundred only.
        assert_eq!(server.requests().len(), 100);
        assert!(
            matches!(rendered.outcome, RenderOutcome::Settled),
            "{:?}",
            rendered.outcome
        );

        let rendered = browser.render(&server.url("/huge.html"), None, &gate).await;
        assert!(rendered.dom_truncated);
        assert!(rendered.dom.len() <= 10_001 && rendered.dom.len() > 9_990);
        assert!(
            rendered
                .dom
                .starts_with("<!DOCTYPE html><html><head></head><body>é€✓ ")
        );
        // innerText counts UTF-16 units, the last space trimmed.
        assert_eq!(rendered.text_length, 79_999);
        assert_eq!(rendered.errors.len(), crawlgate_render::MAX_ERRORS);
        for error in &rendered.errors {
            assert!(
                error.len() <= crawlgate_render::MAX_ERROR_BYTES,
                "{}",
                error.len()
            );
            assert!(error.starts_with("console.error: éé"));
        }
    });
}

#[test]
fn requests_of_cross_site_frames_and_workers_go_to_the_gate() {
    run(async {
        // `localhost` and `127.0.0.1` are different sites: with site isolation the frame would
        // run in a process of its own, its requests past the page's interception.
        let page = r#"<!DOCTYPE html><html><body><p id="out">waiting</p>
          <iframe src="http://localhost:{{port}}/frame.html"></iframe><script>
          const worker = new Worker('/worker.js');
          worker.onmessage = (m) => { document.getElementById('out').textContent = m.data; };
        </script></body></html>"#;
        let site = ServedSite::new()
            .file(
                "frame.html",
                "<!DOCTYPE html><script src=/frame.js></script>",
            )
            .file("frame.js", "document.title = 'framed';")
            .file(
                "worker.js",
                "fetch('/from-worker.json').then(r => r.json()).then(d => postMessage(d.m));",
            )
            .file("from-worker.json", r#"{"m": "worker fetched"}"#);
        // The page names the server's port, so it is given as the document.
        let server = SiteServer::start(site).await.unwrap();
        let port = server.addr().port();
        let Some(browser) = renderer(options()).await else {
            return;
        };
        let gate = Gate::default();
        let document = Document {
            status: 200,
            headers: vec![("Content-Type".to_owned(), "text/html".to_owned())],
            body: page.replace("{{port}}", &port.to_string()).into(),
        };
        let rendered = browser
            .render(&server.url("/page.html"), Some(&document), &gate)
            .await;
        let asked: Vec<_> = gate
            .asked()
            .iter()
            .map(|r| format!("{} {}", r.resource_type, r.url))
            .collect();
        for expected in [
            format!("Document http://localhost:{port}/frame.html"),
            format!("Script http://localhost:{port}/frame.js"),
            format!("Other http://127.0.0.1:{port}/worker.js"),
        ] {
            assert!(
                asked.contains(&expected),
                "{expected} in {asked:?}; server {:?}; {:?}",
                server.requests(),
                rendered.requests
            );
        }
        assert!(
            asked.iter().any(|a| a.ends_with("/from-worker.json")),
            "the worker's fetch: {asked:?}"
        );
        assert!(rendered.dom.contains("worker fetched"), "{}", rendered.dom);
        // Everything the server saw, the gate had allowed.
        assert_eq!(
            server.requests().len(),
            asked.len(),
            "{:?}",
            server.requests()
        );
    });
}
