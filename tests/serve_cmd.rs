//! `crawlgate serve`: after the demo audit, the workbench on 127.0.0.1 (an ephemeral port) is
//! sent a draft of the demo's robots.txt that frees `/account/` for Googlebot, and answers with
//! exactly the demo URLs that rule refused; SIGTERM stops it. Bad input exits 2.

use crate::util::{crawlgate, exits_2_saying, report_json, scratch, text};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Every wait of these tests is bounded by this.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A `crawlgate serve` process, killed if the test ends before it stops.
struct Running {
    child: Child,
    /// `127.0.0.1:PORT`, from the URL it printed.
    addr: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlgate"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("crawlgate serve starts");
    let stdout = child.stdout.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let line = receiver
        .recv_timeout(TIMEOUT)
        .expect("serve prints its URL");
    let url = line
        .trim()
        .strip_prefix("crawlgate workbench on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
    let addr = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("not an http URL: {url}"))
        .to_owned();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    Running { child, addr }
}

/// One request over HTTP/1.1 (`Connection: close`): status and body.
fn http(addr: &str, head: &str, body: &[u8]) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(TIMEOUT)).unwrap();
    let request = format!(
        "{head} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("the server answers");
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let status = String::from_utf8_lossy(&answer[9..12]).parse().unwrap();
    let body = serde_json::from_slice(&answer[end + 4..]).unwrap_or(Value::Null);
    (status, body)
}

/// The demo's robots.txt of www without the Googlebot group's `Disallow: /account/` line; that
/// line's number.
fn without_account_rule(robots: &str) -> (String, usize) {
    let lines: Vec<&str> = robots.lines().collect();
    let group = lines
        .iter()
        .position(|l| *l == "User-agent: Googlebot")
        .expect("a Googlebot group");
    let offset = lines[group..]
        .iter()
        .position(|l| *l == "Disallow: /account/")
        .expect("the Googlebot group disallows /account/");
    let index = group + offset;
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, l)| *l)
        .collect();
    (kept.join("\n") + "\n", index + 1)
}

/// Sends SIGTERM to `running` and waits (bounded) for it to exit with status 0; its stderr.
fn stop_with_sigterm(mut running: Running) -> String {
    let pid = running.child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = running.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "serve did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    let mut stderr = String::new();
    running
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    stderr
}

#[test]
fn the_workbench_shows_the_demo_urls_a_draft_frees() {
    let dir = scratch("serve-demo");
    let output = crawlgate(&[
        "audit",
        "--demo",
        "--quiet",
        "--format",
        "json",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let report = report_json(&dir);
    let running = serve(&["--report", dir.to_str().unwrap(), "--listen", "127.0.0.1:0"]);

    let (status, state) = http(&running.addr, "GET /api/state", b"");
    assert_eq!(status, 200);
    assert_eq!(state["report"]["origin"], "http://www.northwind.test");
    let robots = state["robots"].as_str().unwrap();
    let (draft, line) = without_account_rule(robots);

    // What the audit says that line refused Googlebot: every www URL it decided.
    let decided = format!("line {line}: Disallow: /account/");
    let expected: Vec<&str> = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|page| page["profiles"]["googlebot"]["robots_rule"] == decided.as_str())
        .map(|page| page["url"].as_str().unwrap())
        .collect();
    assert!(
        expected.contains(&"http://www.northwind.test/account/"),
        "{expected:?}"
    );

    let started = Instant::now();
    let request = json!({ "robots": draft, "paths": ["/account/", "/cart"], "bots": ["googlebot", "bingbot"], "origin": "http://www.northwind.test" });
    let (status, answer) = http(
        &running.addr,
        "POST /api/check",
        &serde_json::to_vec(&request).unwrap(),
    );
    let took = started.elapsed();
    assert_eq!(status, 200, "{answer}");
    assert!(took < Duration::from_secs(5), "the check took {took:?}");
    let checked = &answer["report"];
    let flips = checked["flips"].as_array().unwrap();
    let freed: Vec<&str> = flips
        .iter()
        .filter(|flip| flip["profile"] == "googlebot")
        .map(|flip| flip["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        freed, expected,
        "exactly the URLs the removed line refused flip"
    );
    for flip in flips {
        assert_eq!(
            flip["profile"], "googlebot",
            "bingbot reads the * group: {flip}"
        );
        assert_eq!(flip["before"]["decided_by"]["line"], line);
        assert_eq!(flip["before"]["decided_by"]["text"], "Disallow: /account/");
        assert_eq!(flip["after"]["allowed"], true);
    }
    assert_eq!(checked["profiles"][0]["newly_allowed"], expected.len());
    assert_eq!(checked["profiles"][0]["newly_disallowed"], 0);
    assert_eq!(checked["profiles"][1]["newly_allowed"], 0);
    let resolved: Vec<(&str, &str)> = checked["resolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["url"].as_str().unwrap()))
        .collect();
    assert!(
        resolved.contains(&(
            "robots/blocked-noindex",
            "http://www.northwind.test/account/"
        )),
        "{resolved:?}"
    );
    // The matrix: the same verdict for /account/.
    assert_eq!(answer["rows"][0]["cells"][0]["allowed"], true);
    assert_eq!(answer["rows"][1]["cells"][0]["allowed"], false);

    // SIGTERM stops it, exit status 0.
    let stderr = stop_with_sigterm(running);
    assert!(stderr.contains("crawlgate workbench stopped"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let dir = scratch("serve-bad-input");
    exits_2_saying(&["serve", "--listen", "0.0.0.0:0"], "--allow-remote");
    let big = dir.join("big.robots.txt");
    std::fs::write(&big, "#".repeat(crawlgate_workbench::MAX_DRAFT_BYTES + 1)).unwrap();
    let listen = ["--listen", "127.0.0.1:0"];
    exits_2_saying(
        &[&["serve", "--robots", big.to_str().unwrap()][..], &listen].concat(),
        "larger than 1024000 bytes",
    );
    let missing = dir.join("none.json");
    exits_2_saying(
        &[
            &["serve", "--report", missing.to_str().unwrap()][..],
            &listen,
        ]
        .concat(),
        "none.json",
    );
    let not_report = dir.join("robots.json");
    std::fs::write(&not_report, "{\"robots\": []}").unwrap();
    exits_2_saying(
        &[
            &["serve", "--report", not_report.to_str().unwrap()][..],
            &listen,
        ]
        .concat(),
        "is not a crawlgate report.json",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
