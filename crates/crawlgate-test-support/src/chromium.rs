//! Headless Chromium (Debian's `chromium`) for the tests of the HTML report: load a page and
//! read its DOM after its scripts ran and its console, and check that it fits a desktop and a
//! phone screen.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The Chromium binary on PATH, if any (the tests that need one say they skipped without).
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|candidate| candidate.is_file())
}

/// Load `file` in headless Chromium; returns the DOM after scripts ran, and the console lines.
pub fn load(chromium: &Path, file: &Path) -> (String, Vec<String>) {
    load_with(chromium, file, &[])
}

/// Widths an HTML report is laid out at: a desktop and a phone.
pub const LAYOUT_WIDTHS: [u32; 2] = [1280, 390];

/// The HTML page at `report` laid out in an iframe of each of [`LAYOUT_WIDTHS`] (a page beside it
/// measures them, file access between the two allowed): per width, the viewport's width, the
/// document's `scrollWidth`, and the visible elements reaching past the viewport (not inside a
/// box that scrolls or clips on its own), as `tag.class`; every `<details>` opened first.
pub fn layout(chromium: &Path, report: &Path) -> Vec<(u32, u32, u32, String)> {
    let name = report.file_name().unwrap().to_string_lossy();
    let mut frames = String::new();
    for width in LAYOUT_WIDTHS {
        let _ = write!(
            frames,
            "<iframe id=\"w{width}\" src=\"{name}\" style=\"width:{width}px;height:900px;border:0;display:block\"></iframe>"
        );
    }
    let page = format!(
        r#"<!DOCTYPE html><html><body style="margin:0">{frames}<pre id="layout"></pre><script>
window.addEventListener("load", function () {{
  var lines = [];
  Array.prototype.forEach.call(document.querySelectorAll("iframe"), function (frame) {{
    var doc = frame.contentDocument, root = doc.documentElement;
    Array.prototype.forEach.call(doc.querySelectorAll("details"), function (d) {{ d.open = true; }});
    var width = root.clientWidth, wide = [];
    var view = frame.contentWindow;
    function scrollsInABox(el) {{
      for (var up = el.parentElement; up && up !== doc.body; up = up.parentElement) {{
        if (view.getComputedStyle(up).overflowX !== "visible") {{ return true; }}
      }}
      return false;
    }}
    Array.prototype.forEach.call(doc.body.querySelectorAll("*"), function (el) {{
      if (!el.checkVisibility() || scrollsInABox(el)) {{ return; }}
      if (el.getBoundingClientRect().right > width + 1 && wide.length < 8) {{
        wide.push(el.tagName.toLowerCase() + "." + (el.getAttribute("class") || ""));
      }}
    }});
    lines.push(frame.id.slice(1) + " " + width + " " + root.scrollWidth + " " + wide.join(","));
  }});
  document.getElementById("layout").textContent = lines.join("\n");
}});
</script></body></html>"#
    );
    let stem = report.file_stem().unwrap_or_default().to_string_lossy();
    let wrapper = report.with_file_name(format!("layout-{stem}.html"));
    std::fs::write(&wrapper, page).unwrap();
    let (dom, console) = load_with(
        chromium,
        &wrapper,
        &["--allow-file-access-from-files", "--window-size=1400,1000"],
    );
    assert!(console.is_empty(), "console output: {console:#?}");
    let listing = dom
        .split("<pre id=\"layout\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("the layout page did not run\n{dom}"));
    listing
        .lines()
        .map(|line| {
            let mut parts = line.splitn(4, ' ');
            let mut number = || parts.next().unwrap().parse::<u32>().unwrap();
            let (frame, viewport, scroll) = (number(), number(), number());
            (
                frame,
                viewport,
                scroll,
                parts.next().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// [`load`] with more command-line switches.
pub fn load_with(chromium: &Path, file: &Path, switches: &[&str]) -> (String, Vec<String>) {
    use std::process::{Command, Stdio};
    let stem = file.file_stem().unwrap_or_default().to_string_lossy();
    let scratch = file.with_file_name(format!("chromium-{stem}"));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("Chromium's scratch folder");
    // Output goes to files, not pipes: a DOM larger than a pipe buffer would block Chromium
    // while this test waits for it to exit.
    let (dom_path, log_path) = (scratch.join("dom.html"), scratch.join("stderr.log"));
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            "--virtual-time-budget=5000",
        ])
        .args(switches)
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("file://{}", file.display()))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&dom_path).expect("DOM file"))
        .stderr(std::fs::File::create(&log_path).expect("log file"))
        .spawn()
        .expect("chromium starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().expect("wait for chromium").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let dom = std::fs::read_to_string(&dom_path).expect("DOM");
    let console = std::fs::read_to_string(&log_path)
        .expect("log")
        .lines()
        .filter(|line| line.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    (dom, console)
}

/// Assert that the HTML page at `file` fits the screen at each of [`LAYOUT_WIDTHS`]: the
/// document is no wider than the viewport and no visible element reaches past it (wide tables
/// may scroll in their own box), every `<details>` open.
pub fn assert_fits(chromium: &Path, file: &Path) {
    let layouts = layout(chromium, file);
    assert_eq!(
        layouts.len(),
        LAYOUT_WIDTHS.len(),
        "{}: {layouts:?}",
        file.display()
    );
    for (frame, viewport, scroll, wide) in layouts {
        assert!(
            viewport <= frame && viewport + 20 >= frame,
            "{} at {frame} px: the viewport is {viewport} px",
            file.display()
        );
        assert!(
            scroll <= viewport && wide.is_empty(),
            "{} at {frame} px: {scroll} px wide for a {viewport} px viewport; too wide: {wide}",
            file.display()
        );
    }
}
