//! Rendering one page: its own incognito context and target, every request paused and decided,
//! navigation, waiting for network idle or the budget, reading the DOM, closing.

use crate::launch::Browser;
use crate::{
    Decision, Document, GateRequest, MAX_ERROR_BYTES, MAX_ERRORS, RenderOptions, RenderOutcome,
    RenderRequest, Rendered, RequestGate, RequestOutcome,
};
use base64::Engine as _;
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::fetch::{
    self, ContinueRequestParams, EventRequestPaused, FailRequestParams, FulfillRequestParams,
    HeaderEntry, RequestPattern, RequestStage,
};
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    self, ErrorReason, EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
    EventResponseReceived, SetBypassServiceWorkerParams,
};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, EventLoadEventFired, NavigateParams,
};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EvaluateParams, EventConsoleApiCalled, EventExceptionThrown,
    RemoteObject, TerminateExecutionParams,
};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};
use url::Url;

/// No request in flight for this long after the load event: the page settled.
const NETWORK_IDLE: Duration = Duration::from_millis(500);
/// Bound on the browser's answer to a command outside the page budget (context, target,
/// enabling domains, closing).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(5);
/// Time the DOM read gets before a script still running is stopped, and again after.
const READ_TIMEOUT: Duration = Duration::from_secs(1);
/// How often settling is checked.
const TICK: Duration = Duration::from_millis(50);

/// Googlebot does not run service workers, and a service worker's own fetches would come from
/// a separate target, past the page's interception: pages see none.
const NO_SERVICE_WORKER: &str = "delete Navigator.prototype.serviceWorker;";

/// Reads what the page settled on, cut in the page to `max` UTF-16 units (never fewer bytes
/// than `max`: every unit is at least one byte of UTF-8) so that a huge DOM is not sent whole.
const READ_DOM: &str = r"(max) => {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const html = document.documentElement ? document.documentElement.outerHTML : '';
  let dom = doctype + html;
  const cut = dom.length > max;
  if (cut) { dom = dom.slice(0, max); }
  const text = document.body ? document.body.innerText.length : 0;
  return { dom, cut, text, url: location.href };
}";

type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub(crate) async fn render(
    browser: &Browser,
    options: &RenderOptions,
    url: &Url,
    document: Option<&Document>,
    gate: &dyn RequestGate,
    started: Instant,
) -> Rendered {
    let mut state = State::new(url, options);
    match open(browser).await {
        Ok((context, page)) => {
            if let Err(reason) = drive(&page, options, url, document, gate, &mut state).await {
                state.fail(reason);
            }
            // Closing the context closes its target too; both bounded, as a hung renderer must
            // not hold the slot.
            let _ = tokio::time::timeout(COMMAND_TIMEOUT, page.close()).await;
            let _ = tokio::time::timeout(
                COMMAND_TIMEOUT,
                browser.cdp.dispose_browser_context(context),
            )
            .await;
        }
        Err(reason) => state.fail(reason),
    }
    state.finish(url, started)
}

/// A fresh incognito context (no cookies, cache or storage from other pages) and a blank
/// target in it.
async fn open(browser: &Browser) -> Result<(BrowserContextId, Page), String> {
    let context = bounded(
        browser
            .cdp
            .create_browser_context(CreateBrowserContextParams::default()),
        "creating a browser context",
    )
    .await?;
    let mut target = CreateTargetParams::new("about:blank");
    target.browser_context_id = Some(context.clone());
    match bounded(browser.cdp.new_page(target), "opening a page").await {
        Ok(page) => Ok((context, page)),
        Err(reason) => {
            let _ = tokio::time::timeout(
                COMMAND_TIMEOUT,
                browser.cdp.dispose_browser_context(context),
            )
            .await;
            Err(reason)
        }
    }
}

/// `future` within [`COMMAND_TIMEOUT`], its error as text.
async fn bounded<T, E: std::fmt::Display>(
    future: impl Future<Output = Result<T, E>>,
    what: &str,
) -> Result<T, String> {
    match tokio::time::timeout(COMMAND_TIMEOUT, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(format!("{what}: {error}")),
        Err(_) => Err(format!("{what}: the browser did not answer within 5 s")),
    }
}

/// A paused request waiting for the gate.
struct Pending {
    fetch_id: fetch::RequestId,
    index: usize,
    headers: Vec<HeaderEntry>,
}

async fn ask(
    gate: &dyn RequestGate,
    request: GateRequest,
    pending: Pending,
) -> (Pending, Decision) {
    let decision = gate.decide(&request).await;
    (pending, decision)
}

#[allow(clippy::too_many_lines)] // one event loop: splitting it would scatter its state.
async fn drive(
    page: &Page,
    options: &RenderOptions,
    url: &Url,
    document: Option<&Document>,
    gate: &dyn RequestGate,
    state: &mut State,
) -> Result<(), String> {
    let listen = "listening to the page";
    let mut paused = bounded(page.event_listener::<EventRequestPaused>(), listen).await?;
    let mut sent = bounded(page.event_listener::<EventRequestWillBeSent>(), listen).await?;
    let mut responses = bounded(page.event_listener::<EventResponseReceived>(), listen).await?;
    let mut finished = bounded(page.event_listener::<EventLoadingFinished>(), listen).await?;
    let mut failed = bounded(page.event_listener::<EventLoadingFailed>(), listen).await?;
    let mut loads = bounded(page.event_listener::<EventLoadEventFired>(), listen).await?;
    let mut exceptions = bounded(page.event_listener::<EventExceptionThrown>(), listen).await?;
    let mut console = bounded(page.event_listener::<EventConsoleApiCalled>(), listen).await?;
    let mut crashes = bounded(page.event_listener::<EventTargetCrashed>(), listen).await?;

    let setup = "preparing the page";
    bounded(page.execute(SetBypassServiceWorkerParams::new(true)), setup).await?;
    // The browser fetches a page's favicon itself, past the page's Fetch interception (the gate
    // would never see it); Googlebot's renderer fetches none.
    let favicon = network::SetBlockedUrLsParams::builder()
        .url_pattern(network::BlockPattern::new("*://*:*/favicon.ico", true))
        .build();
    bounded(page.execute(favicon), setup).await?;
    bounded(
        page.execute(AddScriptToEvaluateOnNewDocumentParams::new(
            NO_SERVICE_WORKER,
        )),
        setup,
    )
    .await?;
    let everything = RequestPattern {
        url_pattern: Some("*".to_owned()),
        resource_type: None,
        request_stage: Some(RequestStage::Request),
    };
    let enable = fetch::EnableParams {
        patterns: Some(vec![everything]),
        handle_auth_requests: None,
    };
    bounded(page.execute(enable), setup).await?;

    // The main frame's id is its target's id in Chromium.
    let main_frame = page.target_id().inner().clone();
    let mut document = document;
    let budget = tokio::time::sleep(options.page_budget);
    tokio::pin!(budget);
    let navigate = page.execute(NavigateParams::new(url.as_str()));
    tokio::pin!(navigate);
    let mut navigated = false;
    let mut loaded_at: Option<Instant> = None;
    let mut last_activity = Instant::now();
    // Network ids of the requests in flight: paused here *and* reported by the page's Network
    // events, in either order. The browser's own favicon request shows in the page's Network
    // events but is never paused (and, blocked, never finishes); a worker's requests are
    // paused here but report on the worker's own session, never to the page's.
    let mut in_flight: HashSet<String> = HashSet::new();
    let mut paused_ids: HashSet<String> = HashSet::new();
    let mut sent_ids: HashSet<String> = HashSet::new();
    // Each event type comes on its own stream and `select!` takes them in any order: a
    // request's end may be read before its start.
    let mut done_ids: HashSet<String> = HashSet::new();
    let mut decisions = FuturesUnordered::new();
    let mut commands: FuturesUnordered<Boxed<'_, ()>> = FuturesUnordered::new();
    let mut tick = tokio::time::interval(TICK);

    loop {
        tokio::select! {
            answer = &mut navigate, if !navigated => {
                navigated = true;
                match answer {
                    Ok(answer) => if let Some(error) = answer.result.error_text.clone() {
                        return Err(format!("navigation failed: {error}"));
                    },
                    Err(error) => return Err(format!("navigation failed: {error}")),
                }
            }
            Some(event) = paused.next() => {
                last_activity = Instant::now();
                let fetch_id = event.request_id.clone();
                if let Some(id) = &event.network_id {
                    if sent_ids.contains(id.inner()) && !done_ids.contains(id.inner()) {
                        in_flight.insert(id.inner().clone());
                    }
                    paused_ids.insert(id.inner().clone());
                }
                if state.requests.len() >= options.max_requests_per_page {
                    state.requests_cut = true;
                    commands.push(Box::pin(ignore(page.execute(FailRequestParams::new(
                        fetch_id,
                        ErrorReason::BlockedByClient,
                    )))));
                    continue;
                }
                let resource_type = event.resource_type.as_ref().to_owned();
                let Ok(request_url) = Url::parse(&event.request.url) else {
                    commands.push(Box::pin(ignore(page.execute(FailRequestParams::new(
                        fetch_id,
                        ErrorReason::Failed,
                    )))));
                    continue;
                };
                let index = state.record(&request_url, &resource_type, event.network_id.as_ref());
                let main_document = resource_type == "Document"
                    && *event.frame_id.inner() == main_frame
                    && same_document(&request_url, url);
                if let (true, Some(given)) = (main_document, document) {
                    // Served once: a reload or a redirect back to it goes to the gate.
                    document = None;
                    state.requests[index].1 = Some(RequestOutcome::Served { status: given.status });
                    commands.push(Box::pin(ignore(page.execute(fulfil(fetch_id, given)))));
                } else if matches!(request_url.scheme(), "data" | "blob") {
                    // Made from what the page already has: nothing leaves the browser.
                    commands.push(Box::pin(ignore(page.execute(ContinueRequestParams::new(fetch_id)))));
                } else {
                    let request = GateRequest {
                        url: request_url,
                        resource_type,
                        method: event.request.method.clone(),
                    };
                    let pending = Pending {
                        fetch_id,
                        index,
                        headers: header_entries(event.request.headers.inner()),
                    };
                    decisions.push(ask(gate, request, pending));
                }
            }
            Some((pending, decision)) = decisions.next(), if !decisions.is_empty() => {
                last_activity = Instant::now();
                match decision {
                    Decision::Allow { extra_headers } => {
                        state.allowed[pending.index] = true;
                        let mut params = ContinueRequestParams::new(pending.fetch_id);
                        if !extra_headers.is_empty() {
                            params.headers = Some(merge(pending.headers, extra_headers));
                        }
                        commands.push(Box::pin(ignore(page.execute(params))));
                    }
                    Decision::Block { reason } => {
                        state.requests[pending.index].1 = Some(RequestOutcome::Blocked { reason });
                        commands.push(Box::pin(ignore(page.execute(FailRequestParams::new(
                            pending.fetch_id,
                            ErrorReason::BlockedByClient,
                        )))));
                    }
                }
            }
            Some(()) = commands.next(), if !commands.is_empty() => {}
            Some(event) = sent.next() => {
                last_activity = Instant::now();
                let id = event.request_id.inner();
                if paused_ids.contains(id) && !done_ids.contains(id) {
                    in_flight.insert(id.clone());
                }
                sent_ids.insert(id.clone());
                if let Some(redirect) = &event.redirect_response {
                    state.redirected(event.request_id.inner(), &redirect.url, redirect.status);
                }
            }
            Some(event) = responses.next() => {
                state.responded(event.request_id.inner(), event.response.status);
            }
            Some(event) = finished.next() => {
                last_activity = Instant::now();
                in_flight.remove(event.request_id.inner());
                done_ids.insert(event.request_id.inner().clone());
            }
            Some(event) = failed.next() => {
                last_activity = Instant::now();
                in_flight.remove(event.request_id.inner());
                done_ids.insert(event.request_id.inner().clone());
                state.failed(event.request_id.inner(), &event.error_text);
            }
            Some(_) = loads.next() => {
                loaded_at = Some(Instant::now());
            }
            Some(event) = exceptions.next() => {
                let details = &event.exception_details;
                let text = details
                    .exception
                    .as_ref()
                    .and_then(|exception| exception.description.clone())
                    .unwrap_or_else(|| details.text.clone());
                state.error(format!("Uncaught {text}"));
            }
            Some(event) = console.next() => {
                if event.r#type == ConsoleApiCalledType::Error {
                    let line: Vec<String> = event.args.iter().map(console_text).collect();
                    state.error(format!("console.error: {}", line.join(" ")));
                }
            }
            Some(_) = crashes.next() => {
                return Err("the page's renderer crashed".to_owned());
            }
            () = &mut budget => {
                state.outcome = Some(RenderOutcome::TimedOut);
                break;
            }
            _ = tick.tick() => {
                let settled = loaded_at.is_some_and(|at| {
                    in_flight.is_empty()
                        && decisions.is_empty()
                        && at.max(last_activity).elapsed() >= NETWORK_IDLE
                });
                if settled {
                    state.outcome = Some(RenderOutcome::Settled);
                    break;
                }
            }
        }
    }
    read(page, options, state).await
}

/// Discards a command's answer: a command about a request fails only when the request or the
/// page is already gone, and the request's Network events say what became of it.
async fn ignore<T>(future: impl Future<Output = chromiumoxide::Result<T>>) {
    let _ = future.await;
}

/// Whether `request` is the page `url` (fragments never reach the network).
fn same_document(request: &Url, url: &Url) -> bool {
    let mut request = request.clone();
    let mut url = url.clone();
    request.set_fragment(None);
    url.set_fragment(None);
    request == url
}

/// Fetch.fulfillRequest with the crawler's response. Framing headers are dropped: the body is
/// the decoded body, whole.
fn fulfil(fetch_id: fetch::RequestId, document: &Document) -> FulfillRequestParams {
    let headers = document
        .headers
        .iter()
        .filter(|(name, _)| {
            !["content-encoding", "content-length", "transfer-encoding"]
                .iter()
                .any(|framing| name.eq_ignore_ascii_case(framing))
        })
        .map(|(name, value)| HeaderEntry::new(name.clone(), value.clone()))
        .collect();
    let body = base64::engine::general_purpose::STANDARD.encode(&document.body);
    let mut params = FulfillRequestParams::new(fetch_id, i64::from(document.status));
    params.response_headers = Some(headers);
    params.body = Some(body.into());
    params
}

/// The request's headers (a JSON object) as header entries.
fn header_entries(headers: &serde_json::Value) -> Vec<HeaderEntry> {
    headers
        .as_object()
        .map(|object| {
            object
                .iter()
                .map(|(name, value)| {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    HeaderEntry::new(name.clone(), value)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Fetch.continueRequest's headers replace the request's: the browser's, less those the gate
/// sets, plus the gate's.
fn merge(mut headers: Vec<HeaderEntry>, extra: Vec<(String, String)>) -> Vec<HeaderEntry> {
    headers.retain(|entry| {
        !extra
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(&entry.name))
    });
    headers.extend(
        extra
            .into_iter()
            .map(|(name, value)| HeaderEntry::new(name, value)),
    );
    headers
}

/// A `console.error` argument as the console would print it.
fn console_text(argument: &RemoteObject) -> String {
    match &argument.value {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(value) => value.to_string(),
        None => argument
            .description
            .clone()
            .unwrap_or_else(|| format!("{:?}", argument.r#type)),
    }
}

/// Reads the DOM. A script still running (an endless loop) would hold the page's thread and
/// the read with it: past [`READ_TIMEOUT`] the running script is terminated and the read tried
/// again. Termination is never sent first: with nothing running it would kill the read itself.
async fn read(page: &Page, options: &RenderOptions, state: &mut State) -> Result<(), String> {
    let call = format!("({READ_DOM})({})", options.max_dom_bytes);
    let evaluate = || {
        let mut params = EvaluateParams::new(call.clone());
        params.return_by_value = Some(true);
        params.silent = Some(true);
        page.execute(params)
    };
    let answer = if let Ok(answer) = tokio::time::timeout(READ_TIMEOUT, evaluate()).await {
        answer
    } else {
        let _ = tokio::time::timeout(
            COMMAND_TIMEOUT,
            page.execute(TerminateExecutionParams::default()),
        )
        .await;
        tokio::time::timeout(READ_TIMEOUT, evaluate())
            .await
            .map_err(|_| {
                "the page did not answer the DOM read, even after its scripts were stopped"
                    .to_owned()
            })?
    };
    let answer = answer.map_err(|error| format!("reading the DOM: {error}"))?;
    if let Some(exception) = &answer.result.exception_details {
        return Err(format!("reading the DOM: {}", exception.text));
    }
    let value = answer.result.result.value.clone().unwrap_or_default();
    let mut dom = value["dom"].as_str().unwrap_or_default().to_owned();
    let mut truncated = value["cut"].as_bool().unwrap_or(false);
    if dom.len() > options.max_dom_bytes {
        let mut end = options.max_dom_bytes;
        while !dom.is_char_boundary(end) {
            end -= 1;
        }
        dom.truncate(end);
        truncated = true;
    }
    state.dom = dom;
    state.dom_truncated = truncated;
    state.text_length = value["text"]
        .as_u64()
        .and_then(|text| usize::try_from(text).ok())
        .unwrap_or(0);
    state.final_url = value["url"].as_str().and_then(|url| Url::parse(url).ok());
    Ok(())
}

/// What is gathered while the page renders.
struct State {
    /// Each request and its outcome, `None` while it has none.
    requests: Vec<(RenderRequest, Option<RequestOutcome>)>,
    /// Per request: the gate let it go.
    allowed: Vec<bool>,
    /// Network request id → the records made under it (a redirect chain shares one id).
    by_network_id: HashMap<String, Vec<usize>>,
    requests_cut: bool,
    errors: Vec<String>,
    dom: String,
    dom_truncated: bool,
    text_length: usize,
    final_url: Option<Url>,
    outcome: Option<RenderOutcome>,
}

impl State {
    fn new(_url: &Url, options: &RenderOptions) -> Self {
        State {
            requests: Vec::with_capacity(options.max_requests_per_page.min(64)),
            allowed: Vec::new(),
            by_network_id: HashMap::new(),
            requests_cut: false,
            errors: Vec::new(),
            dom: String::new(),
            dom_truncated: false,
            text_length: 0,
            final_url: None,
            outcome: None,
        }
    }

    fn record(
        &mut self,
        url: &Url,
        resource_type: &str,
        network_id: Option<&network::RequestId>,
    ) -> usize {
        let index = self.requests.len();
        self.allowed.push(false);
        self.requests.push((
            RenderRequest {
                url: url.clone(),
                resource_type: resource_type.to_owned(),
                outcome: RequestOutcome::Failed {
                    error_text: String::new(),
                },
            },
            None,
        ));
        if let Some(id) = network_id {
            self.by_network_id
                .entry(id.inner().clone())
                .or_default()
                .push(index);
        }
        index
    }

    /// The latest record under `network_id` still without an outcome.
    fn open_record(&mut self, network_id: &str) -> Option<&mut Option<RequestOutcome>> {
        let indices = self.by_network_id.get(network_id)?;
        let index = indices
            .iter()
            .rev()
            .find(|&&index| self.requests[index].1.is_none())?;
        Some(&mut self.requests[*index].1)
    }

    /// A redirect answered the hop to `from`: that record is served with the redirect's status
    /// (the next hop is paused, and recorded, on its own).
    fn redirected(&mut self, network_id: &str, from: &str, status: i64) {
        let Some(indices) = self.by_network_id.get(network_id) else {
            return;
        };
        let hop = indices.iter().copied().find(|&index| {
            self.requests[index].1.is_none() && self.requests[index].0.url.as_str() == from
        });
        if let Some(index) = hop {
            self.requests[index].1 = Some(RequestOutcome::Served {
                status: to_status(status),
            });
        }
    }

    fn responded(&mut self, network_id: &str, status: i64) {
        if let Some(outcome) = self.open_record(network_id) {
            *outcome = Some(RequestOutcome::Served {
                status: to_status(status),
            });
        }
    }

    fn failed(&mut self, network_id: &str, error_text: &str) {
        if let Some(outcome) = self.open_record(network_id) {
            *outcome = Some(RequestOutcome::Failed {
                error_text: error_text.to_owned(),
            });
        }
    }

    fn error(&mut self, mut text: String) {
        if self.errors.len() >= MAX_ERRORS {
            return;
        }
        if text.len() > MAX_ERROR_BYTES {
            let mut end = MAX_ERROR_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        self.errors.push(text);
    }

    fn fail(&mut self, reason: String) {
        self.outcome = Some(RenderOutcome::Failed { reason });
    }

    fn finish(self, url: &Url, started: Instant) -> Rendered {
        let requests = self
            .requests
            .into_iter()
            .zip(self.allowed)
            .map(|((mut request, outcome), allowed)| {
                request.outcome = match outcome {
                    Some(outcome) => outcome,
                    None if allowed => RequestOutcome::Allowed,
                    None => RequestOutcome::Failed {
                        error_text: "not answered before the page was closed".to_owned(),
                    },
                };
                request
            })
            .collect();
        Rendered {
            final_url: self.final_url.unwrap_or_else(|| url.clone()),
            dom: self.dom,
            dom_truncated: self.dom_truncated,
            text_length: self.text_length,
            requests,
            requests_cut: self.requests_cut,
            errors: self.errors,
            outcome: self.outcome.unwrap_or(RenderOutcome::Settled),
            elapsed: started.elapsed(),
        }
    }
}

/// An HTTP status from CDP's integer (out of range: 0).
fn to_status(status: i64) -> u16 {
    u16::try_from(status).unwrap_or(0)
}
