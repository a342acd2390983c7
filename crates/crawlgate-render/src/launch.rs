//! Finding, starting and killing the browser.

use crate::RenderOptions;
use chromiumoxide::browser::BrowserConfig;
use chromiumoxide::handler::viewport::Viewport;
use futures_util::StreamExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The binaries looked for on `PATH`, in order: Debian's and Ubuntu's names, then Google's.
const NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// Time the browser has to start and print its debugging address.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(20);

/// Why the browser could not be started.
#[derive(Debug, Error)]
pub enum LaunchError {
    /// No browser binary: none on `PATH`, or the given path is not a file.
    #[error(
        "Chromium was not found ({searched}); install Debian's `chromium` package (apt-get install chromium)"
    )]
    NotFound {
        /// What was looked for: the path given, or the names tried on `PATH`.
        searched: String,
    },
    /// The temporary profile folder could not be created.
    #[error("cannot create the browser's temporary profile folder: {0}")]
    Profile(#[source] std::io::Error),
    /// The binary was found but did not start or did not answer on Chrome's debugging protocol (CDP).
    #[error("cannot start {binary}: {reason}")]
    Start {
        /// The binary run.
        binary: String,
        /// What failed (the process's error or the CDP connection's).
        reason: String,
    },
}

/// The browser binary: `explicit` when it is a file, else the first of `chromium`, `chromium-browser`,
/// `google-chrome` and `google-chrome-stable` on `PATH`.
pub fn find_chromium(explicit: Option<&Path>) -> Result<PathBuf, LaunchError> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path.to_path_buf())
        } else {
            Err(LaunchError::NotFound {
                searched: path.display().to_string(),
            })
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in NAMES {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(LaunchError::NotFound {
        searched: format!("{} on PATH", NAMES.join(", ")),
    })
}

/// The browser process, its CDP connection and its profile. Field order is drop order:
/// the connection task and the process go before the profile folder they write in.
pub(crate) struct Browser {
    pub(crate) cdp: chromiumoxide::Browser,
    handler: tokio::task::JoinHandle<()>,
    pub(crate) binary: PathBuf,
    pub(crate) pid: Option<u32>,
    profile: tempfile::TempDir,
}

impl Browser {
    pub(crate) async fn launch(options: &RenderOptions) -> Result<Self, LaunchError> {
        let binary = find_chromium(options.chromium.as_deref())?;
        let profile = tempfile::Builder::new()
            .prefix("crawlgate-chromium-")
            .tempdir()
            .map_err(LaunchError::Profile)?;
        let (width, height) = options.viewport;
        let mut config = BrowserConfig::builder()
            .chrome_executable(&binary)
            // Our switches only: chromiumoxide's defaults include `--enable-automation`
            // (navigator.webdriver, which pages can detect) and leave some background services on.
            .disable_default_args()
            .new_headless_mode()
            .user_data_dir(profile.path())
            .window_size(width, height)
            .viewport(Viewport {
                width,
                height,
                device_scale_factor: None,
                emulating_mobile: options.mobile,
                is_landscape: false,
                has_touch: options.mobile,
            })
            .launch_timeout(LAUNCH_TIMEOUT)
            // Every command is bounded by the page budget on our side; this is chromiumoxide's
            // own bound, for commands it sends itself.
            .request_timeout(options.page_budget + Duration::from_secs(10))
            .args(switches(options));
        if running_as_root() {
            // Chromium refuses to start its sandbox as root (containers, CI).
            config = config.no_sandbox();
        }
        let config = config.build().map_err(|reason| LaunchError::Start {
            binary: binary.display().to_string(),
            reason,
        })?;
        let (mut cdp, mut handler) =
            chromiumoxide::Browser::launch(config)
                .await
                .map_err(|error| LaunchError::Start {
                    binary: binary.display().to_string(),
                    reason: error.to_string(),
                })?;
        let pid = cdp
            .get_mut_child()
            .and_then(|child| child.as_mut_inner().id());
        // The connection is driven by its own task; it ends when the browser goes away. An item
        // that is an error is one message chromiumoxide could not read: keep going.
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        Ok(Browser {
            cdp,
            handler,
            binary,
            pid,
            profile,
        })
    }
}

/// How long the profile folder must stay removed before the browser counts as cleaned up:
/// helpers that outlive the browser for a moment can write into it after a first removal.
const PROFILE_SETTLE: Duration = Duration::from_millis(100);

impl Drop for Browser {
    fn drop(&mut self) {
        self.handler.abort();
        if let Some(child) = self.cdp.get_mut_child() {
            let child = child.as_mut_inner();
            // SIGKILL: no chance for the browser to write its profile back or phone home. Its
            // renderers and helpers exit when the browser's pipes close.
            let _ = child.start_kill();
            // Reap it before the profile folder goes, so that the folder is not removed under
            // a process still writing in it. Bounded: a kill is acted on at once.
            let deadline = Instant::now() + Duration::from_secs(2);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Helpers may still hold files open for a moment, or write one more file after the
        // folder is gone (which brings it back); TempDir's own removal ignores errors. So remove
        // until the folder stays gone for a short while, within a bound.
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut gone_since: Option<Instant> = None;
        while Instant::now() < deadline {
            if self.profile.path().exists() {
                gone_since = None;
                let _ = std::fs::remove_dir_all(self.profile.path());
            } else if gone_since.get_or_insert_with(Instant::now).elapsed() >= PROFILE_SETTLE {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Whether the effective user is root (from `/proc/self/status`; not Linux: assume not).
fn running_as_root() -> bool {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .is_some_and(|effective| effective == "0")
}

/// The browser's switches, without their `--` (chromiumoxide adds it). The aim: a browser that makes no request of its own (no updates,
/// sync, safe browsing, metrics, translation, suggestions), so that every request on the wire
/// is one a page made and the gate saw.
fn switches(options: &RenderOptions) -> Vec<String> {
    let mut switches: Vec<String> = [
        "no-first-run",
        "no-default-browser-check",
        "disable-background-networking",
        "disable-component-update",
        "disable-sync",
        "disable-extensions",
        "disable-default-apps",
        "disable-client-side-phishing-detection",
        "disable-domain-reliability",
        "disable-breakpad",
        "disable-crash-reporter",
        "metrics-recording-only",
        "no-pings",
        "dns-prefetch-disable",
        "password-store=basic",
        "use-mock-keychain",
        // Docker's /dev/shm is 64 MiB: renderers would crash on large pages.
        "disable-dev-shm-usage",
        "disable-gpu",
        "mute-audio",
        "hide-scrollbars",
        // Pages rendered side by side are all "in the background": keep their timers at speed.
        "disable-background-timer-throttling",
        "disable-backgrounding-occluded-windows",
        "disable-renderer-backgrounding",
        "disable-popup-blocking",
        "disable-prompt-on-repost",
        "disable-hang-monitor",
        // `LocalNetworkAccessChecks` would fail a public page's requests to private addresses
        // (and `localhost` from `127.0.0.1`): the gate decides what a page may reach.
        // Cross-site iframes in the page's process: their requests are then paused by the page's
        // own Fetch interception instead of escaping through a separate target.
        "disable-site-isolation-trials",
        "disable-features=SitePerProcess,IsolateOrigins,Translate,OptimizationHints,\
         MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,\
         CertificateTransparencyComponentUpdater,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,\
         InterestFeedContentSuggestions,PrivacySandboxSettings4,SafeBrowsing,\
         LocalNetworkAccessChecks",
        "lang=en-US",
        // What the switches above do not silence, seen with strace on Debian's Chromium 156:
        // the browser's own lookups of Google's sign-in, update and service hosts and a
        // preconnect to the default search engine. Pages reaching these hosts fail too (the
        // gate would have been asked first); none is a page's content.
        "host-resolver-rules=MAP accounts.google.com ~NOTFOUND, MAP clients1.google.com ~NOTFOUND, \
         MAP clients2.google.com ~NOTFOUND, MAP clients4.google.com ~NOTFOUND, \
         MAP update.googleapis.com ~NOTFOUND, MAP safebrowsing.googleapis.com ~NOTFOUND, \
         MAP optimizationguide-pa.googleapis.com ~NOTFOUND, \
         MAP content-autofill.googleapis.com ~NOTFOUND, MAP *.gvt1.com ~NOTFOUND, \
         MAP start.duckduckgo.com ~NOTFOUND",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    // chromiumoxide adds the `--` of each switch.
    switches.push(format!("user-agent={}", options.user_agent));
    switches
}
