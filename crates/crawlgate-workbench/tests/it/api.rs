//! The JSON API and the page's assets over real HTTP: verdicts, lint, flips and findings
//! against a report, and every bound and safety check.

use crate::{SHOP_ROBOTS, draft, get, post_check, request, serve, shop_report};
use crawlgate_workbench::{
    MAX_BODY_BYTES, MAX_DRAFT_BYTES, MAX_PATHS, Server, Workbench, WorkbenchError,
};
use serde_json::{Value, json};

/// The cell of `path` × `label` in a check's answer.
fn cell<'a>(answer: &'a Value, path: &str, label: &str) -> &'a Value {
    let column = answer["bots"]
        .as_array()
        .unwrap()
        .iter()
        .position(|bot| bot["label"] == label)
        .unwrap_or_else(|| panic!("no column {label}"));
    let row = answer["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["path"] == path)
        .unwrap_or_else(|| panic!("no row {path}"));
    &row["cells"][column]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_assets_are_served_self_contained_with_a_strict_policy() {
    let served = serve(Workbench::new(Some(draft("User-agent: *\n")), None).unwrap()).await;
    let page = get(served.addr, "/").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = String::from_utf8(page.body.clone()).unwrap();
    assert!(
        html.contains(r#"<script src="/app.js" defer></script>"#),
        "{html}"
    );
    // Nothing from elsewhere: no absolute URL in any src or href, no inline script or style.
    for attribute in [
        "src=\"http",
        "href=\"http",
        "src=\"//",
        "href=\"//",
        "<script>",
        "<style",
        " style=",
    ] {
        assert!(!html.contains(attribute), "{attribute} in the page");
    }
    for (path, content_type) in [
        ("/", "text/html; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/api/state", "application/json"),
    ] {
        let reply = get(served.addr, path).await;
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("content-type"), Some(content_type), "{path}");
        let policy = reply.header("content-security-policy").unwrap_or_default();
        assert!(
            policy.starts_with("default-src 'none';"),
            "{path}: {policy}"
        );
        assert!(
            policy.contains("script-src 'self';") && policy.contains("style-src 'self';"),
            "{policy}"
        );
        assert!(!policy.contains("unsafe"), "{policy}");
        assert_eq!(
            reply.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
    let script = String::from_utf8(get(served.addr, "/app.js").await.body).unwrap();
    assert!(
        !script.contains("innerHTML")
            && !script.contains("insertAdjacentHTML")
            && !script.contains("eval(")
    );
    assert!(
        !script.contains("http://") && !script.contains("https://"),
        "the script fetches only its own API"
    );
    assert_eq!(get(served.addr, "/favicon.ico").await.status, 204);
    assert_eq!(get(served.addr, "/etc/passwd").await.status, 404);
    assert_eq!(get(served.addr, "/../Cargo.toml").await.status, 404);
    let wrong_method = get(served.addr, "/api/check").await;
    assert_eq!(
        (wrong_method.status, wrong_method.header("allow")),
        (405, Some("POST"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_typed_flips_the_cell_it_matches_with_its_line() {
    let served =
        serve(Workbench::new(Some(draft("User-agent: *\nDisallow: /private/\n")), None).unwrap())
            .await;
    let state = get(served.addr, "/api/state").await.json();
    assert_eq!(state["robots"], "User-agent: *\nDisallow: /private/\n");
    assert_eq!(state["source"], "test.robots.txt");
    assert_eq!(state["limits"]["google_max_bytes"], 512_000);
    assert_eq!(state["limits"]["max_paths"], MAX_PATHS);
    assert!(state["report"].is_null());
    let names: Vec<&str> = state["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "googlebot",
            "googlebot-image",
            "bingbot",
            "gptbot",
            "claudebot",
            "ccbot",
            "*"
        ]
    );

    let ask = |robots: &str| json!({ "robots": robots, "paths": ["/shop/boots", "https://x.test/private/a?b"], "bots": ["googlebot", "*", "Applebot"] });
    let before = post_check(served.addr, &ask("User-agent: *\nDisallow: /private/\n")).await;
    assert_eq!(before.status, 200);
    let before = before.json();
    assert_eq!(cell(&before, "/shop/boots", "Googlebot")["allowed"], true);
    assert!(cell(&before, "/shop/boots", "Googlebot")["decided_by"].is_null());
    let private = cell(&before, "https://x.test/private/a?b", "Applebot");
    assert_eq!(private["allowed"], false);
    assert_eq!(private["decided_by"]["line"], 2);
    assert_eq!(private["decided_by"]["text"], "Disallow: /private/");
    assert_eq!(before["rows"][1]["matched"], "/private/a?b");
    let groups: Vec<&str> = before["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["group"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["global", "global", "global"]);

    let after = post_check(
        served.addr,
        &ask("User-agent: *\nDisallow: /private/\n  disallow: /shop/ # new\n"),
    )
    .await
    .json();
    let boots = cell(&after, "/shop/boots", "Googlebot");
    assert_eq!(boots["allowed"], false);
    assert_eq!(boots["decided_by"]["line"], 3);
    assert_eq!(boots["decided_by"]["rule"], "Disallow: /shop/");
    assert_eq!(boots["decided_by"]["text"], "  disallow: /shop/ # new");

    // A group of its own: Googlebot no longer reads the `*` rules.
    let own = post_check(
        served.addr,
        &ask("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /x\n"),
    )
    .await
    .json();
    assert_eq!(own["bots"][0]["group"], "own");
    assert_eq!(own["bots"][0]["group_lines"], json!([4]));
    assert_eq!(
        cell(&own, "https://x.test/private/a?b", "Googlebot")["allowed"],
        true
    );
    assert_eq!(
        cell(&own, "https://x.test/private/a?b", "*")["allowed"],
        false
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_issues_come_with_their_line_as_typed() {
    let served = serve(Workbench::new(None, None).unwrap()).await;
    let state = get(served.addr, "/api/state").await.json();
    assert!(state["source"].as_str().unwrap().contains("example"));
    let answer = post_check(
        served.addr,
        &json!({ "robots": "User-agent: *\nDisallow: /a\nDissallow: /b\nCrawl-delay: 4\n", "paths": [], "bots": [] }),
    )
    .await
    .json();
    let issues: Vec<(Value, &str)> = answer["lint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["line"].clone(), i["rule"].as_str().unwrap()))
        .collect();
    assert!(
        issues.contains(&(json!(3), "robots/typo-field")),
        "{issues:?}"
    );
    assert!(
        issues.contains(&(json!(4), "robots/unsupported-field")),
        "{issues:?}"
    );
    assert!(
        issues.contains(&(Value::Null, "robots/no-sitemap-field")),
        "{issues:?}"
    );
    assert_eq!(
        answer["bots"].as_array().unwrap().len(),
        7,
        "no crawler asked: every built-in"
    );
    // A final line end starts no line.
    assert_eq!(answer["lines"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn against_a_report_the_flips_and_the_findings_resolved_and_created_are_listed() {
    let served = serve(Workbench::new(None, Some(shop_report(&[]))).unwrap()).await;
    let state = get(served.addr, "/api/state").await.json();
    let listed = SHOP_ROBOTS.join("\n") + "\n";
    assert_eq!(
        state["robots"], listed,
        "the draft starts from the report's robots.txt"
    );
    assert_eq!(
        state["source"],
        "the report's robots.txt of http://shop.test"
    );
    assert_eq!(state["report"]["origin"], "http://shop.test");
    // The sample paths: the refused ones first.
    assert_eq!(
        state["paths"],
        json!(["/private/a", "/", "/assets/site.css", "/shop/boots"])
    );

    // The same file: nothing flips, nothing is resolved or created.
    let same = post_check(
        served.addr,
        &json!({ "robots": listed, "paths": [], "bots": [], "origin": "http://shop.test" }),
    )
    .await
    .json();
    let report = &same["report"];
    assert_eq!(
        (report["baseline"].as_str(), report["urls"].as_u64()),
        (Some("rules"), Some(4))
    );
    assert_eq!(report["flips_total"], 0);
    assert_eq!(report["resolved_total"], 0);
    assert_eq!(report["lint"], json!([]));

    // Free /private/, block /shop/, fix the typo.
    let draft = "User-agent: *\nDisallow: /tmp/\nDisallow: /shop/\n\nSitemap: http://shop.test/sitemap.xml\n";
    let answer = post_check(served.addr, &json!({ "robots": draft, "paths": ["/private/a"], "bots": ["googlebot"], "origin": "http://shop.test/" })).await;
    assert_eq!(answer.status, 200);
    let report = answer.json()["report"].clone();
    let counts: Vec<(&str, u64, u64)> = report["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["profile"].as_str().unwrap(),
                p["newly_allowed"].as_u64().unwrap(),
                p["newly_disallowed"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [("googlebot", 1, 1), ("bingbot", 1, 1)]);
    assert_eq!(report["flips_total"], 4);
    let private = &report["flips"][0];
    assert_eq!(private["url"], "http://shop.test/private/a");
    assert_eq!(private["before"]["decided_by"]["line"], 2);
    assert_eq!(
        private["before"]["decided_by"]["text"],
        "Disallow: /private/"
    );
    assert_eq!(private["after"]["reason"], "allowed (no rule)");
    let boots = report["flips"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["url"] == "http://shop.test/shop/boots")
        .unwrap();
    assert_eq!(boots["after"]["decided_by"]["line"], 3);
    assert_eq!(boots["before"]["reason"], "allowed (no rule)");

    assert_eq!(report["resolved_total"], 1);
    let resolved = &report["resolved"][0];
    assert_eq!(
        (resolved["rule"].as_str(), resolved["url"].as_str()),
        (
            Some("robots/blocked-noindex"),
            Some("http://shop.test/private/a")
        )
    );
    assert_eq!(resolved["after"]["allowed"], true);
    assert_eq!(report["created_total"], 2);
    let created = &report["created"][0];
    assert_eq!(created["url"], "http://shop.test/shop/boots");
    assert_eq!(created["rules"], json!(["sitemap/url-blocked"]));
    assert_eq!(
        report["lint"],
        json!([{ "rule": "robots/typo-field", "findings_before": 1, "issues_after": 0, "resolved": true }])
    );

    let unknown = post_check(
        served.addr,
        &json!({ "robots": draft, "origin": "http://other.test" }),
    )
    .await;
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.json()["error"]
            .as_str()
            .unwrap()
            .contains("no robots.txt for")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_from_elsewhere_and_oversized_ones_are_refused() {
    let served = serve(Workbench::new(Some(draft("User-agent: *\n")), None).unwrap()).await;
    let addr = served.addr;
    let body = serde_json::to_vec(&json!({ "robots": "User-agent: *\n" })).unwrap();
    let json_type = ("Content-Type", "application/json");
    let ok = request(addr, "POST /api/check", &[json_type], &body).await;
    assert_eq!(ok.status, 200);

    // DNS rebinding: a name that resolves here, but is not this server's address.
    for host in [
        "attacker.example",
        "attacker.example:80",
        "localhost",
        &format!("evil.test:{}", addr.port()),
    ] {
        let reply = request(addr, "GET /api/state", &[("Host", host)], b"").await;
        assert_eq!(reply.status, 403, "{host}");
        let reply = request(addr, "POST /api/check", &[("Host", host), json_type], &body).await;
        assert_eq!(reply.status, 403, "{host}");
    }
    let localhost = format!("localhost:{}", addr.port());
    assert_eq!(
        request(addr, "GET /api/state", &[("Host", &localhost)], b"")
            .await
            .status,
        200
    );

    // A form post from another page: no JSON content type, or another origin.
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let reply = request(
            addr,
            "POST /api/check",
            &[("Content-Type", content_type)],
            &body,
        )
        .await;
        assert_eq!(reply.status, 415, "{content_type}");
    }
    assert_eq!(
        request(addr, "POST /api/check", &[], &body).await.status,
        415
    );
    let foreign = request(
        addr,
        "POST /api/check",
        &[json_type, ("Origin", "http://attacker.example")],
        &body,
    )
    .await;
    assert_eq!(foreign.status, 403);
    let own = format!("http://{addr}");
    assert_eq!(
        request(
            addr,
            "POST /api/check",
            &[json_type, ("Origin", &own)],
            &body
        )
        .await
        .status,
        200
    );

    // Bounds.
    let declared = (MAX_BODY_BYTES + 1).to_string();
    let huge = request(
        addr,
        "POST /api/check",
        &[json_type, ("Content-Length", &declared)],
        b"",
    )
    .await;
    assert_eq!(huge.status, 413);
    let big_draft =
        serde_json::to_vec(&json!({ "robots": "#".repeat(MAX_DRAFT_BYTES + 1) })).unwrap();
    let reply = request(addr, "POST /api/check", &[json_type], &big_draft).await;
    assert_eq!(reply.status, 413);
    assert!(reply.json()["error"].as_str().unwrap().contains("at most"));
    let paths: Vec<String> = (0..=MAX_PATHS).map(|i| format!("/{i}")).collect();
    let reply = post_check(addr, &json!({ "robots": "", "paths": paths })).await;
    assert_eq!(reply.status, 400);
    assert!(
        reply.json()["error"]
            .as_str()
            .unwrap()
            .contains("paths given")
    );
    let reply = request(addr, "POST /api/check", &[json_type], b"{not json").await;
    assert_eq!(reply.status, 400);
}

#[tokio::test]
async fn a_non_loopback_address_is_refused_unless_asked_for() {
    let workbench = Workbench::new(None, None).unwrap();
    // Refused before anything is bound.
    let refused = Server::bind(workbench, "0.0.0.0:0".parse().unwrap(), false).await;
    assert!(
        matches!(refused, Err(WorkbenchError::NotLoopback(_))),
        "{refused:?}"
    );
    let too_large = Workbench::new(Some(draft(&"#".repeat(MAX_DRAFT_BYTES + 1))), None);
    assert!(matches!(too_large, Err(WorkbenchError::TooLarge { .. })));
}
