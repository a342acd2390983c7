//! crawlgate-render against real headless Chromium and a real loopback server. One test binary
//! (ARCHITECTURE.md, "tests/"): a module per subject.

mod launch;
mod pages;
mod requests;

use crawlgate_render::{
    Decision, GateRequest, LaunchError, RenderOptions, Rendered, Renderer, RequestGate,
    RequestOutcome,
};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

/// A renderer with `options` (the budget shortened for tests), or `None` when no Chromium is
/// installed and `CRAWLGATE_REQUIRE_CHROMIUM=1` is not set (then the test says it skipped).
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
pub(crate) async fn renderer(options: RenderOptions) -> Option<Renderer> {
    match Renderer::launch(options).await {
        Ok(renderer) => Some(renderer),
        Err(LaunchError::NotFound { .. })
            if std::env::var("CRAWLGATE_REQUIRE_CHROMIUM").as_deref() != Ok("1") =>
        {
            println!("note: chromium is not installed; rendering tests skipped");
            None
        }
        Err(error) => panic!("the browser must start: {error}"),
    }
}

/// The test options. A page that settles returns as soon as it does, so the budget only bounds
/// a page that never settles; it is long because on the CI machine (two cores, the suite's other
/// browsers and test binaries beside it) a page that fails 900 requests took more than 5 s to
/// settle. Tests that expect a timeout set a short budget of their own.
pub(crate) fn options() -> RenderOptions {
    RenderOptions {
        page_budget: Duration::from_secs(30),
        ..RenderOptions::default()
    }
}

/// A gate that records what it was asked, blocks URLs whose path starts with one of `blocked`,
/// and adds `headers` to the rest.
#[derive(Default)]
pub(crate) struct Gate {
    pub(crate) blocked: Vec<&'static str>,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) asked: Mutex<Vec<GateRequest>>,
}

impl Gate {
    pub(crate) fn blocking(paths: &[&'static str]) -> Self {
        Gate {
            blocked: paths.to_vec(),
            ..Gate::default()
        }
    }

    pub(crate) fn asked(&self) -> Vec<GateRequest> {
        self.asked.lock().unwrap().clone()
    }
}

impl RequestGate for Gate {
    fn decide<'a>(
        &'a self,
        request: &'a GateRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            self.asked.lock().unwrap().push(request.clone());
            if self
                .blocked
                .iter()
                .any(|prefix| request.url.path().starts_with(prefix))
            {
                Decision::Block {
                    reason: "out of scope".to_owned(),
                }
            } else {
                Decision::Allow {
                    extra_headers: self.headers.clone(),
                }
            }
        })
    }
}

/// The outcome of the first request whose path is `path`.
pub(crate) fn outcome_of<'a>(rendered: &'a Rendered, path: &str) -> Option<&'a RequestOutcome> {
    rendered
        .requests
        .iter()
        .find(|request| request.url.path() == path)
        .map(|request| &request.outcome)
}

/// A multi-threaded runtime, so that the server, the CDP connection and the test do not
/// wait on each other.
pub(crate) fn run<F: Future<Output = ()>>(test: F) {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}
