//! `crawlgate audit --format parquet`: the tables of an audit of `fixtures/sites/audit-small/`
//! (served on 127.0.0.1) opened by another reader, DuckDB's Python package: each file's columns,
//! types and nullability against the documented schema (`crawlgate::parquet::Table`, which the
//! README's section is generated from), the counts and joins against report.json, and README's
//! example queries run as written (one audit's pages; two audits' findings compared). Without duckdb importable the tests say they skipped, unless
//! `CRAWLGATE_REQUIRE_DUCKDB=1` (CI sets it when it installed duckdb), when they fail.

use crate::util::{crawlgate, exits_2_saying, report_json, scratch, text};
use crawlgate::parquet::{Table, created_by};
use crawlgate_test_support::repo_dir;
use crawlgate_test_support::served::serve_fixture_site;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Whether `python3 -c 'import duckdb'` works; without it, whether that is allowed (then the
/// caller returns).
#[allow(clippy::print_stdout, reason = "the test says why it checked nothing")]
fn duckdb_here() -> bool {
    let imports = Command::new("python3")
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|output| output.status.success());
    if imports {
        return true;
    }
    assert!(
        std::env::var_os("CRAWLGATE_REQUIRE_DUCKDB").is_none_or(|v| v != "1"),
        "CRAWLGATE_REQUIRE_DUCKDB=1 and `python3 -c 'import duckdb'` fails"
    );
    println!(
        "note: python3 cannot import duckdb (pip install duckdb); Parquet reader tests skipped"
    );
    false
}

/// Reads every table with DuckDB and prints what the test compares, as one JSON object.
/// argv: the report folder (relative to the working folder), README's query, the table names.
const DUCKDB_SCRIPT: &str = r#"
import json, sys
import duckdb

folder, readme_query, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
con = duckdb.connect()
out = {"version": duckdb.__version__, "tables": {}}
for name in tables:
    path = f"{folder}/{name}.parquet"
    con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    describe = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
    schema = con.execute(
        f"SELECT name, repetition_type FROM parquet_schema('{path}') WHERE num_children IS NULL OR num_children = 0"
    ).fetchall()
    created_by = con.execute(f"SELECT created_by FROM parquet_file_metadata('{path}')").fetchone()[0]
    kv = con.execute(
        f"SELECT decode(key), decode(value) FROM parquet_kv_metadata('{path}') WHERE decode(key) LIKE 'crawlgate.%' ORDER BY 1"
    ).fetchall()
    out["tables"][name] = {
        "columns": [[row[0], row[1]] for row in describe],
        "repetition": [[row[0], row[1]] for row in schema],
        "rows": con.execute(f"SELECT count(*) FROM {name}").fetchone()[0],
        "created_by": created_by,
        "kv": [[k, v] for k, v in kv],
    }

def rows(sql):
    return [list(row) for row in con.execute(sql).fetchall()]

out["pages"] = rows("SELECT url, status, inbound_links, in_sitemap, findings FROM pages ORDER BY url")
out["by_rule"] = rows("SELECT rule, count(*) FROM findings GROUP BY rule ORDER BY rule")
out["findings_on_pages"] = rows(
    "SELECT f.finding_id, f.rule, p.status FROM findings f JOIN pages p USING (url) ORDER BY f.finding_id"
)
out["verdicts"] = rows("SELECT url, profile, allowed, indexable FROM verdicts ORDER BY url, profile")
out["sitemap_entries"] = rows("SELECT sitemap_url, url FROM sitemap_entries ORDER BY sitemap_url, url")
out["links"] = rows(
    "SELECT l.from_url, l.to_url, f.rule FROM links l JOIN findings f USING (finding_id) ORDER BY ALL"
)
out["evidence_kinds"] = rows(
    "SELECT finding_id, json_extract_string(evidence, '$[0].kind') FROM findings ORDER BY finding_id"
)
out["readme_query"] = rows(readme_query)
print(json.dumps(out))
"#;

/// README's example query, as written between its `parquet-query` markers.
fn readme_query() -> String {
    readme_sql("parquet-query")
}

/// The SQL README.md shows between its `<!-- MARKER:begin -->` and `<!-- MARKER:end -->`.
fn readme_sql(marker: &str) -> String {
    let readme = std::fs::read_to_string(repo_dir().join("README.md")).expect("README.md");
    let begin = format!("<!-- {marker}:begin -->\n```sql\n");
    let start = readme
        .find(&begin)
        .unwrap_or_else(|| panic!("README.md has no {marker} block"))
        + begin.len();
    let end = start
        + readme[start..]
            .find(&format!("```\n<!-- {marker}:end -->"))
            .unwrap();
    readme[start..end].trim().trim_end_matches(';').to_owned()
}

/// `crawlgate audit URL` with `extra` flags into `out`: the Parquet tables and report.json,
/// whatever it finds (exit 0).
fn audit_to_tables(url: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "audit",
        url,
        "--format",
        "parquet",
        "--format",
        "json",
        "--fail-on",
        "never",
        "--quiet",
        "-o",
        out,
    ];
    args.extend_from_slice(extra);
    let output = crawlgate(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output
}

/// Run the script in `cwd` on the tables in `cwd/folder`; its answer.
fn duckdb_read(cwd: &Path, folder: &str) -> Value {
    let query = readme_query();
    let mut args = vec!["-c", DUCKDB_SCRIPT, folder, query.as_str()];
    args.extend(Table::ALL.iter().map(|table| table.name()));
    let output = Command::new("python3")
        .args(&args)
        .current_dir(cwd)
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the script prints JSON")
}

/// A row of strings as SQL's `ORDER BY` compares it (bytes, column after column).
fn sort_key(row: &Value) -> Vec<String> {
    row.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .collect()
}

#[test]
fn duckdb_reads_the_tables_with_the_documented_schema_and_report_json_s_content() {
    if !duckdb_here() {
        return;
    }
    let server = serve_fixture_site("audit-small");
    let dir = scratch("audit-parquet");
    let out = dir.join("crawlgate-report");
    let output = audit_to_tables(
        server.url("/").as_str(),
        &out,
        &["--profile", "googlebot", "--profile", "bingbot"],
    );
    let stdout = text(&output.stdout);
    for table in Table::ALL {
        let path = out.join(table.file_name());
        assert!(path.is_file(), "{}", path.display());
        assert!(stdout.contains(&path.display().to_string()), "{stdout}");
    }
    let report = report_json(&out);
    let read = duckdb_read(&dir, "crawlgate-report");
    files_have_the_documented_schema(&read, &report);
    rows_are_report_json_s(&read, &report);
    listings_and_links_are_report_json_s(&read, &report);
    readme_query_answers(&read, &report);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each file's columns, types and nullability are the documented ones; its metadata ours.
fn files_have_the_documented_schema(read: &Value, report: &Value) {
    let version = read["version"].as_str().unwrap();
    for table in Table::ALL {
        let name = table.name();
        let file = &read["tables"][name];
        let documented: Vec<Value> = table
            .columns()
            .iter()
            .map(|c| json!([c.name, c.column_type.duckdb_type()]))
            .collect();
        assert_eq!(
            file["columns"],
            json!(documented),
            "{name} (duckdb {version})"
        );
        let repetition: Vec<Value> = table
            .columns()
            .iter()
            .map(|c| json!([c.name, if c.nullable { "OPTIONAL" } else { "REQUIRED" }]))
            .collect();
        assert_eq!(file["repetition"], json!(repetition), "{name}");
        assert_eq!(file["created_by"], created_by(), "{name}");
        assert_eq!(
            file["kv"],
            json!([
                ["crawlgate.report_schema_version", "1"],
                ["crawlgate.schema_version", "1"],
                ["crawlgate.table", name],
                ["crawlgate.tool_version", report["tool"]["version"]],
            ]),
            "{name}"
        );
    }
}

/// Findings (URL, count per rule) the way report.json has them.
fn findings_per_url(report: &Value) -> BTreeMap<&str, u64> {
    let mut by_url: BTreeMap<&str, u64> = BTreeMap::new();
    for finding in report["findings"].as_array().unwrap() {
        *by_url.entry(finding["url"].as_str().unwrap()).or_default() += 1;
    }
    by_url
}

/// The rows, counts and joins are report.json's.
fn rows_are_report_json_s(read: &Value, report: &Value) {
    let pages = report["pages"].as_array().unwrap();
    let findings = report["findings"].as_array().unwrap();
    let rows = |name: &str| read["tables"][name]["rows"].as_u64().unwrap();
    assert_eq!(rows("pages"), pages.len() as u64);
    assert_eq!(rows("findings"), findings.len() as u64);
    assert_eq!(
        rows("sitemaps"),
        report["sitemaps"].as_array().unwrap().len() as u64
    );
    let by_url = findings_per_url(report);
    let mut expected_pages: Vec<Value> = pages
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap();
            json!([
                url,
                p["status"],
                p["inbound_links"],
                !p["in_sitemaps"].as_array().unwrap().is_empty(),
                by_url.get(url).copied().unwrap_or(0)
            ])
        })
        .collect();
    expected_pages.sort_by(|a, b| a[0].as_str().cmp(&b[0].as_str()));
    assert_eq!(read["pages"], json!(expected_pages));
    let by_rule: Vec<Value> = report["summary"]["by_rule"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(rule, n)| json!([rule, n]))
        .collect();
    assert_eq!(read["by_rule"], json!(by_rule));
    assert!(
        by_rule.iter().any(|r| r[0] == "robots/blocked-noindex"),
        "{by_rule:?}"
    );

    // Findings join pages by URL: every finding about a known URL, with that page's status.
    let status_of: BTreeMap<&str, &Value> = pages
        .iter()
        .map(|p| (p["url"].as_str().unwrap(), &p["status"]))
        .collect();
    let on_pages: Vec<Value> = findings
        .iter()
        .enumerate()
        .filter_map(|(id, f)| {
            let status = status_of.get(f["url"].as_str().unwrap())?;
            Some(json!([id, f["rule"], status]))
        })
        .collect();
    assert!(!on_pages.is_empty());
    assert_eq!(read["findings_on_pages"], json!(on_pages));
    let evidence_kinds: Vec<Value> = findings
        .iter()
        .enumerate()
        .map(|(id, f)| json!([id, f["evidence"][0]["kind"]]))
        .collect();
    assert_eq!(read["evidence_kinds"], json!(evidence_kinds));

    // A verdict per page and profile.
    let mut verdicts: Vec<Value> = pages
        .iter()
        .flat_map(|p| {
            p["profiles"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(profile, view)| {
                    json!([p["url"], profile, view["allowed"], view["indexable"]])
                })
        })
        .collect();
    verdicts.sort_by_key(|v| sort_key(&json!([v[0], v[1]])));
    assert_eq!(read["verdicts"], json!(verdicts));
    assert!(
        verdicts.iter().any(|v| v[1] == "bingbot" && v[3] == false),
        "the workshop page is disallowed: {verdicts:?}"
    );
}

/// The sitemap listings, and the links and asset references the findings quote.
fn listings_and_links_are_report_json_s(read: &Value, report: &Value) {
    let pages = report["pages"].as_array().unwrap();
    let mut entries: Vec<Value> = pages
        .iter()
        .flat_map(|p| {
            p["in_sitemaps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| json!([s, p["url"]]))
        })
        .collect();
    entries.sort_by_key(sort_key);
    assert!(!entries.is_empty(), "the fixture's sitemap lists its pages");
    assert_eq!(read["sitemap_entries"], json!(entries));
    let mut links: Vec<Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| {
            f["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|e| match e["kind"].as_str() {
                    Some("link") => Some(json!([e["from"], e["to"], f["rule"]])),
                    Some("asset_ref") => Some(json!([e["page"], e["asset"], f["rule"]])),
                    _ => None,
                })
        })
        .collect();
    links.sort_by_key(sort_key);
    assert!(
        links.iter().any(|l| l[2] == "robots/blocked-linked"),
        "{links:?}"
    );
    assert_eq!(read["links"], json!(links));
}

/// README's example: the pages Googlebot would not index, why, and their findings.
fn readme_query_answers(read: &Value, report: &Value) {
    let by_url = findings_per_url(report);
    let mut not_indexable: Vec<Value> = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "page" && p["profiles"]["googlebot"]["indexable"] == false)
        .map(|p| {
            let url = p["url"].as_str().unwrap();
            json!([
                url,
                p["status"],
                p["profiles"]["googlebot"]["why_not"],
                by_url.get(url).copied().unwrap_or(0)
            ])
        })
        .collect();
    not_indexable.sort_by_key(|row| {
        (
            std::cmp::Reverse(row[3].as_u64().unwrap()),
            row[0].as_str().unwrap().to_owned(),
        )
    });
    assert!(
        !not_indexable.is_empty(),
        "the workshop page is not indexable"
    );
    assert_eq!(read["readme_query"], json!(not_indexable));
}

#[test]
fn the_tables_are_the_same_asked_by_flag_or_crawlgate_toml_and_diff_writes_them() {
    let server = serve_fixture_site("audit-small");
    let dir = scratch("audit-parquet-twice");
    // Once asked on the command line (in any case), once by crawlgate.toml's `formats`.
    let config = dir.join("crawlgate.toml");
    std::fs::write(&config, "formats = [\"parquet\", \"json\"]\n").unwrap();
    let start = server.url("/").to_string();
    let audit = |name: &str, formats: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["audit", start.as_str()];
        args.extend_from_slice(formats);
        args.extend(["--fail-on", "never", "--quiet", "-o", out.to_str().unwrap()]);
        let output = crawlgate(&args);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        out
    };
    let first = audit("first", &["--format", "Parquet", "--format", "json"]);
    let second = audit("second", &["--config", config.to_str().unwrap()]);
    assert!(
        !second.join("report.html").exists(),
        "only the configured formats"
    );
    for table in Table::ALL {
        let bytes = std::fs::read(first.join(table.file_name())).unwrap();
        assert_eq!(
            bytes,
            std::fs::read(second.join(table.file_name())).unwrap(),
            "{}",
            table.file_name()
        );
        assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    }

    // `crawlgate diff` writes its report's tables the same way.
    let diffed = dir.join("diff");
    let output = crawlgate(&[
        "diff",
        first.join("report.json").to_str().unwrap(),
        second.join("report.json").to_str().unwrap(),
        "--format",
        "parquet",
        "-o",
        diffed.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&diffed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<&str> = Table::ALL.iter().map(|t| t.file_name()).collect();
    expected.sort_unstable();
    assert_eq!(names, expected, "only the tables, nothing else");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parquet_is_listed_where_formats_are() {
    exits_2_saying(
        &["audit", "http://127.0.0.1:1/", "--format", "pdf"],
        "unknown report format `pdf` (available: html, json, junit, md, md-summary, parquet, sarif",
    );
    let help = text(&crawlgate(&["audit", "--help"]).stdout);
    assert!(help.contains("parquet"), "{help}");
    let help = text(&crawlgate(&["diff", "--help"]).stdout);
    assert!(help.contains("parquet"), "{help}");
}

/// README's query comparing two audits gives the findings whose fingerprints only one of the
/// two report.json files has: new ones from `after/`, resolved ones from `before/`.
#[test]
fn readme_s_diff_query_gives_the_findings_new_and_resolved_by_fingerprint() {
    if !duckdb_here() {
        return;
    }
    let server = serve_fixture_site("audit-small");
    let dir = scratch("audit-parquet-diff");
    // After: a robots.txt draft that no longer blocks /workshop/ and blocks /about instead.
    let draft = dir.join("robots-draft.txt");
    std::fs::write(&draft, "User-agent: *\nDisallow: /about\n").unwrap();
    let origin = server.url("/").origin().ascii_serialization();
    let override_flag = format!("{origin}={}", draft.display());
    let start = server.url("/");
    for (folder, extra) in [
        ("before", &[][..]),
        ("after", &["--robots-override", override_flag.as_str()][..]),
    ] {
        audit_to_tables(start.as_str(), &dir.join(folder), extra);
    }
    let output = Command::new("python3")
        .args([
            "-c",
            "import json, sys, duckdb\n\
             print(json.dumps([list(row) for row in duckdb.sql(sys.argv[1]).fetchall()]))",
            &readme_sql("parquet-diff-query"),
        ])
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut changes: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();

    let (before, after) = (
        report_json(&dir.join("before")),
        report_json(&dir.join("after")),
    );
    let only_in = |change: &str, these: &Value, others: &Value| -> Vec<Value> {
        let known: std::collections::BTreeSet<&str> = others["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fingerprint"].as_str().unwrap())
            .collect();
        these["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| !known.contains(f["fingerprint"].as_str().unwrap()))
            .map(|f| {
                json!([
                    change,
                    f["severity"],
                    f["rule"],
                    f["url"],
                    f["profile"],
                    f["message"]
                ])
            })
            .collect()
    };
    let mut expected = only_in("new", &after, &before);
    expected.extend(only_in("resolved", &before, &after));
    let rule = |row: &Value| row[2].as_str().unwrap().to_owned();
    assert!(
        expected
            .iter()
            .any(|row| row[0] == "new" && rule(row) == "robots/blocked-linked"),
        "{expected:?}"
    );
    assert!(
        expected
            .iter()
            .any(|row| row[0] == "resolved" && rule(row) == "robots/blocked-noindex"),
        "{expected:?}"
    );
    let key = |row: &Value| row.to_string();
    changes.sort_by_key(key);
    expected.sort_by_key(key);
    assert_eq!(json!(changes), json!(expected));
    let _ = std::fs::remove_dir_all(&dir);
}
