//! Starting and stopping the browser.

use crate::{Gate, options, renderer, run};
use crawlgate_render::{LaunchError, RenderOptions, Renderer};
use crawlgate_serve::{ServedSite, SiteServer};
use std::time::{Duration, Instant};

#[test]
fn a_missing_binary_names_debians_package() {
    run(async {
        let error = Renderer::launch(RenderOptions {
            chromium: Some("/nonexistent/chromium".into()),
            ..options()
        })
        .await
        .unwrap_err();
        assert!(matches!(error, LaunchError::NotFound { .. }), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("/nonexistent/chromium"), "{message}");
        assert!(
            message.contains("install Debian's `chromium` package (apt-get install chromium)"),
            "{message}"
        );
    });
}

/// The pids of `root` and every process under it.
fn tree(root: u32) -> Vec<u32> {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let parent: u32 = after.split(' ').nth(1).unwrap().parse().unwrap();
        parents.push((pid, parent));
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    found
}

/// The `--user-data-dir` of a process.
fn profile_of(pid: u32) -> std::path::PathBuf {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    cmdline
        .split(|&b| b == 0)
        .find_map(|arg| arg.strip_prefix(b"--user-data-dir="))
        .map(|dir| std::path::PathBuf::from(String::from_utf8_lossy(dir).into_owned()))
        .expect("the browser runs with its own profile")
}

#[test]
fn dropping_the_renderer_leaves_no_process_and_no_profile() {
    run(async {
        let set = "<script>document.cookie = 'seen=1; max-age=3600'; \
                   localStorage.setItem('seen', '1');</script><p>x</p>";
        let read = "<p id=out></p><script>document.getElementById('out').textContent = \
                    'cookie=' + document.cookie + ' storage=' + localStorage.getItem('seen');</script>";
        let site = ServedSite::new()
            .file("index.html", set)
            .file("read.html", read);
        let server = SiteServer::start(site).await.unwrap();
        let Some(browser) = renderer(options()).await else {
            return;
        };
        let rendered = browser
            .render(&server.url("/"), None, &Gate::default())
            .await;
        assert!(rendered.dom.contains("<p>x</p>"));
        // Each page in its own incognito context: nothing the first stored reaches the next.
        let next = browser
            .render(&server.url("/read.html"), None, &Gate::default())
            .await;
        assert!(next.dom.contains("cookie= storage=null"), "{}", next.dom);
        let pid = browser.pid().unwrap();
        let processes = tree(pid);
        assert!(
            processes.len() > 1,
            "renderers and helpers run under the browser"
        );
        let profile = profile_of(pid);
        assert!(profile.is_dir());
        drop(browser);
        let deadline = Instant::now() + Duration::from_secs(5);
        let alive = || {
            processes
                .iter()
                .filter(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists())
                .count()
        };
        while alive() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(alive(), 0, "every process of the browser exited");
        assert!(!profile.exists(), "{} removed", profile.display());
    });
}
