//! The page in headless Chromium (Debian's `chromium`), driven over CDP with chromiumoxide: a
//! rule typed in the editor flips its cell and the deciding line is highlighted, with no console
//! error; markup in the robots.txt, a report URL or a typed token
//! shows as text and never runs. Without Chromium the tests say they skipped, unless
//! `CRAWLGATE_REQUIRE_CHROMIUM=1` (CI sets it), when they fail.

use crate::{draft, serve, shop_report};
use chromiumoxide::Page;
use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::log::{EventEntryAdded, LogEntryLevel};
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EventConsoleApiCalled, EventExceptionThrown,
};
use crawlgate_workbench::Workbench;
use futures_util::StreamExt;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Focuses the editor with the caret after its last character.
const CARET_AT_END: &str = "(() => { const t = document.getElementById('robots'); t.focus(); \
     t.setSelectionRange(t.value.length, t.value.length); return true; })()";

/// Bounds every wait for the page.
const WAIT: Duration = Duration::from_secs(15);

/// The browser, the task of its CDP connection and its profile folder.
struct Chromium {
    browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl Chromium {
    /// Debian's chromium, headless; `None` when it is not installed (and that is allowed).
    #[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
    async fn launch() -> Option<Chromium> {
        let Some(binary) = crawlgate_test_support::chromium::find() else {
            assert!(
                std::env::var_os("CRAWLGATE_REQUIRE_CHROMIUM").is_none_or(|v| v != "1"),
                "CRAWLGATE_REQUIRE_CHROMIUM=1 and no chromium on PATH"
            );
            println!("note: chromium is not installed; the workbench's browser tests skipped");
            return None;
        };
        let profile = tempfile::Builder::new()
            .prefix("crawlgate-workbench-chromium-")
            .tempdir()
            .unwrap();
        let mut config = BrowserConfig::builder()
            .chrome_executable(binary)
            .new_headless_mode()
            .user_data_dir(profile.path())
            .window_size(1280, 900)
            .launch_timeout(Duration::from_secs(30))
            .request_timeout(Duration::from_secs(30))
            .args([
                "disable-gpu",
                "disable-dev-shm-usage",
                "no-first-run",
                "disable-extensions",
            ]);
        // Chromium refuses to start its sandbox as root (containers, CI).
        if std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
            status
                .lines()
                .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
        }) {
            config = config.no_sandbox();
        }
        let (browser, mut events) = Browser::launch(config.build().unwrap())
            .await
            .expect("chromium starts");
        let handler = tokio::spawn(async move { while events.next().await.is_some() {} });
        Some(Chromium {
            browser,
            handler,
            _profile: profile,
        })
    }

    /// A page at `url`, its console errors, exceptions and error log entries collected.
    async fn open(&self, url: &str) -> (Page, Arc<Mutex<Vec<String>>>) {
        let page = self.browser.new_page("about:blank").await.unwrap();
        page.enable_log().await.unwrap();
        let errors = Arc::new(Mutex::new(Vec::new()));
        let mut console = page
            .event_listener::<EventConsoleApiCalled>()
            .await
            .unwrap();
        let mut exceptions = page.event_listener::<EventExceptionThrown>().await.unwrap();
        let mut log = page.event_listener::<EventEntryAdded>().await.unwrap();
        let seen = Arc::clone(&errors);
        tokio::spawn(async move {
            loop {
                let error = tokio::select! {
                    Some(call) = console.next() => (call.r#type == ConsoleApiCalledType::Error)
                        .then(|| format!("console.error: {:?}", call.args.iter().map(|a| a.value.clone()).collect::<Vec<_>>())),
                    Some(thrown) = exceptions.next() => Some(format!("exception: {}", thrown.exception_details.text)),
                    Some(entry) = log.next() => (entry.entry.level == LogEntryLevel::Error)
                        .then(|| format!("log: {}", entry.entry.text)),
                    else => break,
                };
                if let Some(error) = error {
                    seen.lock().unwrap().push(error);
                }
            }
        });
        page.goto(url).await.expect("the page loads");
        (page, errors)
    }

    async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.close()).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.wait()).await;
        self.handler.abort();
    }
}

async fn eval(page: &Page, expression: &str) -> Value {
    tokio::time::timeout(WAIT, page.evaluate(expression))
        .await
        .expect("the page answers")
        .unwrap_or_else(|error| panic!("{expression}: {error}"))
        .into_value()
        .unwrap_or(Value::Null)
}

/// Waits until `expression` is true; how long it took.
async fn until(page: &Page, expression: &str) -> Duration {
    let start = Instant::now();
    while eval(page, expression).await != Value::Bool(true) {
        assert!(start.elapsed() < WAIT, "never true: {expression}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    start.elapsed()
}

/// The matrix cell of `path` × `bot`, as a JavaScript expression.
fn cell(path: &str, bot: &str) -> String {
    format!(
        "Array.from(document.querySelectorAll('#matrix td')).find(td => td.dataset.path === {} && td.dataset.bot === {})",
        Value::from(path),
        Value::from(bot)
    )
}

/// A typo typed on a new line: its issue shows on that line of the editor, and only there.
async fn lint_shows_inline(page: &Page, editor: &chromiumoxide::Element) {
    // A lint issue appears inline on its line as it is typed.
    eval(page, CARET_AT_END).await;
    editor.press_key("Enter").await.unwrap();
    editor.type_str("Dissallow: /x").await.unwrap();
    let fourth = "document.querySelectorAll('#backdrop .line')[3]";
    let shown = until(
        page,
        &format!("!!{fourth} && {fourth}.textContent.includes('typo-field')"),
    )
    .await;
    assert!(
        shown < Duration::from_secs(5),
        "the issue showed after {shown:?}"
    );
    assert_eq!(
        eval(page, &format!("{fourth}.classList.contains('issue')")).await,
        true
    );
    // Line 2 has its own issue (`/private/` is a sensitive path); line 3 has none.
    assert_eq!(
        eval(
            page,
            "document.querySelectorAll('#backdrop .line')[2].classList.contains('issue')"
        )
        .await,
        false
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_rule_flips_its_cell_and_the_deciding_line_is_highlighted() {
    let Some(chromium) = Chromium::launch().await else {
        return;
    };
    let served =
        serve(Workbench::new(Some(draft("User-agent: *\nDisallow: /private/\n")), None).unwrap())
            .await;
    let (page, errors) = chromium.open(&format!("http://{}/", served.addr)).await;
    let search = cell("/search?q=boots", "Googlebot");
    until(&page, &format!("!!({search})")).await;
    assert_eq!(
        eval(&page, &format!("({search}).className")).await,
        "allowed"
    );
    let private = cell("/private/report.pdf", "Googlebot");
    assert_eq!(
        eval(&page, &format!("({private}).className")).await,
        "disallowed"
    );
    assert_eq!(eval(&page, &format!("({private}).dataset.line")).await, "2");

    // Type a rule at the end of the draft, key by key.
    let editor = page.find_element("#robots").await.unwrap();
    editor.click().await.unwrap();
    eval(&page, CARET_AT_END).await;
    editor.type_str("Disallow: /search").await.unwrap();
    assert_eq!(
        eval(&page, "document.getElementById('robots').value").await,
        "User-agent: *\nDisallow: /private/\nDisallow: /search"
    );
    let took = until(
        &page,
        &format!("({search}).className.includes('disallowed') && ({search}).dataset.line === '3'"),
    )
    .await;
    assert!(
        eval(&page, &format!("({search}).classList.contains('flipped')")).await
            == Value::Bool(true)
    );
    assert!(
        took < Duration::from_secs(5),
        "the cell flipped after {took:?}"
    );

    // Select the cell: its deciding line is highlighted in the editor, and only that line.
    page.find_element("#matrix td[data-path=\"/search?q=boots\"][data-bot=\"Googlebot\"]")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &page,
        "document.querySelectorAll('#backdrop .line.deciding').length === 1",
    )
    .await;
    assert_eq!(
        eval(
            &page,
            "document.querySelectorAll('#backdrop .line')[2].classList.contains('deciding')"
        )
        .await,
        true
    );
    assert_eq!(
        eval(
            &page,
            "document.querySelector('#backdrop .line.deciding').textContent"
        )
        .await,
        "Disallow: /search"
    );
    let info = eval(&page, "document.getElementById('cell-info').textContent").await;
    assert!(
        info.as_str()
            .unwrap()
            .contains("disallowed by line 3: Disallow: /search"),
        "{info}"
    );

    lint_shows_inline(&page, &editor).await;
    assert!(
        errors.lock().unwrap().is_empty(),
        "{:?}",
        errors.lock().unwrap()
    );
    chromium.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markup_in_the_robots_txt_a_report_url_or_a_token_is_shown_as_text_and_never_runs() {
    let Some(chromium) = Chromium::launch().await else {
        return;
    };
    let robots = "# <script>window.pwned = 'comment'</script>\n\
                  User-agent: <img src=x onerror=\"window.pwned='ua'\">\n\
                  <script>window.pwned = 'line'</script>\n\
                  User-agent: *\n\
                  Disallow: /\n";
    let report = shop_report(&[
        "http://shop.test/<script>window.pwned='url'</script>",
        "http://shop.test/\"><img src=x onerror=\"window.pwned='attribute'\">",
    ]);
    let served = serve(Workbench::new(Some(draft(robots)), Some(report)).unwrap()).await;
    let (page, errors) = chromium.open(&format!("http://{}/", served.addr)).await;
    until(
        &page,
        "document.querySelectorAll('#flips tbody tr').length > 0",
    )
    .await;
    eval(&page, "(() => { const t = document.getElementById('tokens'); t.value = '<img src=x onerror=\"window.pwned=1\">'; t.dispatchEvent(new Event('input')); return true; })()").await;
    until(
        &page,
        "document.querySelector('#matrix thead').textContent.includes('<img src=x')",
    )
    .await;

    let text = eval(&page, "document.body.textContent").await;
    let text = text.as_str().unwrap();
    for shown in [
        "http://shop.test/<script>window.pwned='url'</script>",
        "http://shop.test/\"><img src=x onerror=\"window.pwned='attribute'\">",
        "<script>window.pwned = 'line'</script>",
        "<img src=x onerror=\"window.pwned=1\">",
    ] {
        assert!(text.contains(shown), "{shown} is not shown as text");
    }
    assert_eq!(eval(&page, "typeof window.pwned").await, "undefined");
    assert_eq!(
        eval(&page, "document.scripts.length").await,
        1,
        "only /app.js"
    );
    assert_eq!(
        eval(
            &page,
            "document.querySelectorAll('img, iframe, object, embed').length"
        )
        .await,
        0
    );
    assert!(
        errors.lock().unwrap().is_empty(),
        "{:?}",
        errors.lock().unwrap()
    );
    chromium.close().await;
}
