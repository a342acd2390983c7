//! The schema as documented and as written, determinism, and reports at the edges (empty, no
//! verdicts, many rows, very long strings), each file read back with the Parquet reader.

use crate::{Column, ColumnType, Table, created_by, schema_markdown, write_table, write_tables};
use arrow_array::cast::AsArray;
use arrow_array::types::{UInt16Type, UInt32Type};
use arrow_array::{Array, RecordBatch};
use crawlgate_core::Severity;
use crawlgate_core::finding::{Evidence, Finding};
use crawlgate_core::site::MemoryPageStore;
use crawlgate_report::{
    PageRecord, ProfileView, ProfileViews, RenderedRecord, Report, ReportFinding, SitemapReport,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn minimal() -> Report {
    serde_json::from_str(include_str!("../../../fixtures/reports/minimal.json"))
        .expect("the minimal report matches the model")
}

fn page(url: &str) -> PageRecord {
    PageRecord {
        url: url.to_owned(),
        kind: "page".into(),
        depth: Some(1),
        state: "fetched".into(),
        status: Some(200),
        final_url: None,
        detail: None,
        content_type: Some("text/html".into()),
        canonical: None,
        last_modified: None,
        alternates: Vec::new(),
        alternates_cut: false,
        in_sitemaps: Vec::new(),
        inbound_links: 0,
        profiles: ProfileViews::default(),
        rendered: None,
    }
}

fn view(allowed: bool, directives: &[&str]) -> ProfileView {
    let noindex = directives.contains(&"noindex");
    ProfileView {
        allowed,
        robots_rule: (!allowed).then(|| "line 2: Disallow: /private/".to_owned()),
        directives: directives.iter().map(|d| (*d).to_owned()).collect(),
        noindex,
        indexable: allowed && !noindex,
        why_not: (!allowed || noindex).then(|| "noindex".to_owned()),
    }
}

fn finding(rule: &str, url: &str, evidence: Vec<Evidence>) -> ReportFinding {
    ReportFinding::new(Finding {
        rule: rule.to_owned(),
        severity: Severity::Error,
        url: url.to_owned(),
        profile: Some("googlebot".to_owned()),
        message: format!("{rule} on {url}"),
        evidence,
    })
}

/// A report with something in every table: two profiles (one expected blocked), a page with no
/// verdict, links and asset references quoted, a rendered page, a sitemap listing pages.
fn rich() -> Report {
    let mut report = minimal();
    report.target.profiles = vec!["googlebot".to_owned(), "gptbot".to_owned()];
    report.target.expected_blocked = vec!["gptbot".to_owned()];
    let sitemap = "https://example.test/sitemap.xml".to_owned();

    let mut home = page("https://example.test/");
    home.depth = Some(0);
    home.inbound_links = 3;
    home.in_sitemaps = vec![sitemap.clone()];
    home.profiles = [
        ("googlebot".to_owned(), view(true, &[])),
        ("gptbot".to_owned(), view(false, &[])),
    ]
    .into_iter()
    .collect();
    home.rendered = Some(Box::new(RenderedRecord {
        outcome: "settled".to_owned(),
        failure: None,
        raw: crawlgate_report::PageSignals::default(),
        rendered: crawlgate_report::PageSignals::default(),
        links_added: vec!["https://example.test/app".to_owned()],
        links_added_count: 1,
        text_length: 10,
        text_length_unblocked: None,
        requests: 0,
        requests_cut: false,
        blocked: Vec::new(),
        blocked_count: 0,
        errors: 0,
        first_error: None,
    }));

    let mut private = page("https://example.test/private/x");
    private.in_sitemaps = vec![sitemap.clone()];
    private.profiles = [
        (
            "googlebot".to_owned(),
            view(false, &["nofollow", "noindex"]),
        ),
        ("gptbot".to_owned(), view(false, &[])),
    ]
    .into_iter()
    .collect();

    // Known from a link, never fetched, no verdict.
    let mut unknown = page("https://example.test/unknown");
    unknown.depth = None;
    unknown.state = "not-fetched".into();
    unknown.status = None;
    unknown.content_type = None;
    unknown.detail = Some("past --max-pages".into());

    report.pages = vec![home, private, unknown].into();
    report.findings = vec![
        finding(
            "robots/blocked-linked",
            "https://example.test/private/x",
            vec![
                Evidence::Link {
                    from: "https://example.test/".to_owned(),
                    to: "https://example.test/private/x".to_owned(),
                    line: Some(12),
                    rel: vec!["nofollow".to_owned(), "ugc".to_owned()],
                },
                Evidence::Note {
                    text: "and 2 more".to_owned(),
                },
            ],
        ),
        finding(
            "robots/blocked-asset",
            "https://example.test/app.js",
            vec![Evidence::AssetRef {
                page: "https://example.test/".to_owned(),
                asset: "https://example.test/app.js".to_owned(),
                asset_kind: "script".to_owned(),
                line: None,
            }],
        ),
    ];
    report.sitemaps = vec![SitemapReport {
        url: sitemap,
        sources: vec!["robots.txt line 3".to_owned(), "--sitemap".to_owned()],
        depth: 0,
        state: "parsed".to_owned(),
        status: Some(200),
        final_url: None,
        kind: Some("urlset".to_owned()),
        entries: 2,
        gzip: false,
        bytes_uncompressed: 321,
        issues: 0,
        detail: None,
    }];
    report
}

fn bytes_of(report: &Report, table: Table) -> Vec<u8> {
    write_table(report, table, Vec::new()).unwrap()
}

/// The file's rows, all batches concatenated, after checking its schema is the documented one.
fn read(bytes: Vec<u8>, table: Table) -> RecordBatch {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes)).unwrap();
    // The reader copies the file's key-value metadata into the schema's: the fields are ours.
    assert_eq!(
        builder.schema().fields(),
        table.schema().fields(),
        "{table:?}"
    );
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
    arrow_select_concat(&schema, &batches)
}

fn arrow_select_concat(schema: &arrow_schema::SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    // Small test files: one batch each, or none.
    match batches {
        [] => RecordBatch::new_empty(schema.clone()),
        [one] => one.clone(),
        _ => panic!("expected at most one batch, got {}", batches.len()),
    }
}

fn strings(batch: &RecordBatch, column: &str) -> Vec<Option<String>> {
    let array = batch.column_by_name(column).unwrap().as_string::<i32>();
    (0..array.len())
        .map(|i| array.is_valid(i).then(|| array.value(i).to_owned()))
        .collect()
}

fn u32s(batch: &RecordBatch, column: &str) -> Vec<Option<u32>> {
    let array = batch
        .column_by_name(column)
        .unwrap()
        .as_primitive::<UInt32Type>();
    (0..array.len())
        .map(|i| array.is_valid(i).then(|| array.value(i)))
        .collect()
}

fn bools(batch: &RecordBatch, column: &str) -> Vec<Option<bool>> {
    let array = batch.column_by_name(column).unwrap().as_boolean();
    (0..array.len())
        .map(|i| array.is_valid(i).then(|| array.value(i)))
        .collect()
}

fn some(values: &[&str]) -> Vec<Option<String>> {
    values.iter().map(|v| Some((*v).to_owned())).collect()
}

#[test]
fn every_table_has_unique_snake_case_columns_of_the_five_types() {
    let files: BTreeSet<&str> = Table::ALL.iter().map(|t| t.file_name()).collect();
    assert_eq!(files.len(), Table::ALL.len());
    for table in Table::ALL {
        assert_eq!(table.file_name(), format!("{}.parquet", table.name()));
        let columns = table.columns();
        let names: BTreeSet<&str> = columns.iter().map(|c| c.name).collect();
        assert_eq!(
            names.len(),
            columns.len(),
            "{table:?}: a column named twice"
        );
        for Column {
            name, description, ..
        } in &columns
        {
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}"
            );
            assert!(
                description.ends_with('.'),
                "{table:?}.{name}: {description}"
            );
        }
        assert_eq!(table.schema().fields().len(), columns.len());
    }
    // The keys the tables are joined on are never null.
    let required = |table: Table, name: &str| {
        let column = table
            .columns()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap();
        assert!(!column.nullable, "{table:?}.{name}");
        column.column_type
    };
    for (table, key) in [
        (Table::Pages, "url"),
        (Table::Verdicts, "url"),
        (Table::Findings, "url"),
        (Table::Findings, "finding_id"),
        (Table::Links, "to_url"),
        (Table::Sitemaps, "url"),
        (Table::SitemapEntries, "url"),
        (Table::SitemapEntries, "sitemap_url"),
    ] {
        let column_type = required(table, key);
        assert!(matches!(column_type, ColumnType::Utf8 | ColumnType::UInt32));
    }
}

#[test]
fn the_readme_documents_the_schema_in_code() {
    const BEGIN: &str = "<!-- parquet-schema:begin (generated from crates/crawlgate-parquet; a test checks it) -->\n";
    const END: &str = "<!-- parquet-schema:end -->";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme.find(BEGIN).expect("README.md has the begin marker") + BEGIN.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("README.md has the end marker");
    let expected = format!("\n{}\n", schema_markdown());
    if readme[start..end] != expected {
        let updated = format!("{}{expected}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        panic!(
            "README.md's Parquet schema was out of date and has been regenerated; review and commit it"
        );
    }
}

#[test]
fn an_empty_report_gives_every_file_with_its_schema_and_no_rows() {
    let report = minimal();
    for table in Table::ALL {
        let batch = read(bytes_of(&report, table), table);
        assert_eq!(batch.num_rows(), 0, "{table:?}");
    }
}

#[test]
fn the_same_report_gives_the_same_bytes_with_a_fixed_created_by() {
    let report = rich();
    for table in Table::ALL {
        let first = bytes_of(&report, table);
        assert_eq!(first, bytes_of(&report, table), "{table:?}");
        assert_eq!(first, bytes_of(&report.clone(), table), "{table:?}");
        let reader = SerializedFileReader::new(bytes::Bytes::from(first)).unwrap();
        let meta = reader.metadata().file_metadata();
        assert_eq!(meta.created_by(), Some(created_by().as_str()));
        assert!(created_by().starts_with("crawlgate-parquet version "));
        assert!(created_by().contains("parquet-rs version "));
        let kv: Vec<(&str, Option<&str>)> = meta
            .key_value_metadata()
            .unwrap()
            .iter()
            .map(|kv| (kv.key.as_str(), kv.value.as_deref()))
            .filter(|(key, _)| key.starts_with("crawlgate."))
            .collect();
        assert_eq!(
            kv,
            [
                ("crawlgate.table", Some(table.name())),
                ("crawlgate.schema_version", Some("1")),
                ("crawlgate.report_schema_version", Some("1")),
                ("crawlgate.tool_version", Some("0.0.0-test")),
            ]
        );
    }
}

#[test]
fn pages_carry_status_counts_and_a_verdict_over_the_profiles_meant_to_crawl() {
    let batch = read(bytes_of(&rich(), Table::Pages), Table::Pages);
    assert_eq!(
        strings(&batch, "url"),
        some(&[
            "https://example.test/",
            "https://example.test/private/x",
            "https://example.test/unknown"
        ])
    );
    let status = batch
        .column_by_name("status")
        .unwrap()
        .as_primitive::<UInt16Type>();
    assert_eq!(
        (status.value(0), status.value(1), status.is_null(2)),
        (200, 200, true)
    );
    assert_eq!(u32s(&batch, "depth"), [Some(0), Some(1), None]);
    // gptbot is expected blocked: the home page is indexable by the profiles meant to crawl.
    assert_eq!(bools(&batch, "indexable"), [Some(true), Some(false), None]);
    assert_eq!(u32s(&batch, "inbound_links"), [Some(3), Some(0), Some(0)]);
    assert_eq!(
        bools(&batch, "in_sitemap"),
        [Some(true), Some(true), Some(false)]
    );
    assert_eq!(u32s(&batch, "findings"), [Some(0), Some(1), Some(0)]);
    assert_eq!(
        strings(&batch, "render_outcome"),
        [Some("settled".to_owned()), None, None]
    );
    assert_eq!(
        strings(&batch, "detail")[2].as_deref(),
        Some("past --max-pages")
    );
}

#[test]
fn verdicts_have_a_row_per_page_and_profile_and_none_for_a_page_without_verdicts() {
    let batch = read(bytes_of(&rich(), Table::Verdicts), Table::Verdicts);
    assert_eq!(batch.num_rows(), 4);
    assert_eq!(
        strings(&batch, "profile"),
        some(&["googlebot", "gptbot", "googlebot", "gptbot"])
    );
    assert_eq!(
        bools(&batch, "expected_blocked"),
        [Some(false), Some(true), Some(false), Some(true)]
    );
    assert_eq!(
        strings(&batch, "directives"),
        some(&["", "", "nofollow, noindex", ""])
    );
    assert_eq!(
        bools(&batch, "nofollow"),
        [Some(false), Some(false), Some(true), Some(false)]
    );
    assert_eq!(
        strings(&batch, "robots_rule")[1].as_deref(),
        Some("line 2: Disallow: /private/")
    );
    assert_eq!(strings(&batch, "why_not")[0], None);
}

#[test]
fn links_are_the_quoted_links_asset_references_and_rendered_links() {
    let batch = read(bytes_of(&rich(), Table::Links), Table::Links);
    assert_eq!(u32s(&batch, "finding_id"), [Some(0), Some(1), None]);
    assert_eq!(
        strings(&batch, "kind"),
        some(&["link", "script", "rendered-link"])
    );
    assert_eq!(
        strings(&batch, "to_url"),
        some(&[
            "https://example.test/private/x",
            "https://example.test/app.js",
            "https://example.test/app"
        ])
    );
    assert_eq!(u32s(&batch, "line"), [Some(12), None, None]);
    assert_eq!(strings(&batch, "rel"), some(&["nofollow, ugc", "", ""]));
}

#[test]
fn findings_keep_their_order_ids_and_evidence_as_report_json_has_it() {
    let report = rich();
    let batch = read(bytes_of(&report, Table::Findings), Table::Findings);
    assert_eq!(u32s(&batch, "finding_id"), [Some(0), Some(1)]);
    assert_eq!(
        strings(&batch, "rule"),
        some(&["robots/blocked-linked", "robots/blocked-asset"])
    );
    assert_eq!(strings(&batch, "family"), some(&["robots", "robots"]));
    assert_eq!(strings(&batch, "severity"), some(&["error", "error"]));
    assert_eq!(strings(&batch, "baseline"), [None, None]);
    assert_eq!(u32s(&batch, "evidence_count"), [Some(2), Some(1)]);
    let evidence = strings(&batch, "evidence");
    let json: serde_json::Value = serde_json::to_value(&report).unwrap();
    for (i, evidence) in evidence.iter().enumerate() {
        let parsed: serde_json::Value = serde_json::from_str(evidence.as_deref().unwrap()).unwrap();
        assert_eq!(parsed, json["findings"][i]["evidence"]);
    }
    assert_eq!(
        strings(&batch, "fingerprint"),
        report
            .findings
            .iter()
            .map(|f| Some(f.fingerprint.clone()))
            .collect::<Vec<_>>()
    );
}

#[test]
fn sitemaps_and_their_entries() {
    let report = rich();
    let sitemaps = read(bytes_of(&report, Table::Sitemaps), Table::Sitemaps);
    assert_eq!(
        strings(&sitemaps, "sources"),
        some(&["robots.txt line 3; --sitemap"])
    );
    assert_eq!(u32s(&sitemaps, "source_count"), [Some(2)]);
    let entries = read(
        bytes_of(&report, Table::SitemapEntries),
        Table::SitemapEntries,
    );
    assert_eq!(
        strings(&entries, "url"),
        some(&["https://example.test/", "https://example.test/private/x"])
    );
    assert_eq!(
        strings(&entries, "sitemap_url"),
        some(&[
            "https://example.test/sitemap.xml",
            "https://example.test/sitemap.xml"
        ])
    );
}

#[test]
fn a_large_report_is_written_in_row_groups_of_at_most_rows_per_group() {
    let mut report = minimal();
    let pages = 2 * crate::ROWS_PER_GROUP + 100;
    report.pages = (0..pages)
        .map(|i| page(&format!("https://example.test/p/{i:06}")))
        .collect();
    let bytes = bytes_of(&report, Table::Pages);
    let reader = SerializedFileReader::new(bytes::Bytes::from(bytes.clone())).unwrap();
    let groups: Vec<i64> = reader
        .metadata()
        .row_groups()
        .iter()
        .map(parquet::file::metadata::RowGroupMetaData::num_rows)
        .collect();
    let full = i64::try_from(crate::ROWS_PER_GROUP).unwrap();
    assert_eq!(groups, [full, full, 100]);
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes)).unwrap();
    let rows: usize = builder
        .build()
        .unwrap()
        .map(|batch| batch.unwrap().num_rows())
        .sum();
    assert_eq!(rows, pages);
}

#[test]
fn very_long_strings_are_written_whole() {
    let mut report = minimal();
    let url = format!("https://example.test/{}", "a".repeat(8 << 20));
    let mut long = page(&url);
    long.profiles = [("googlebot".to_owned(), view(true, &[]))]
        .into_iter()
        .collect();
    report.pages = vec![long].into();
    let message = "ü".repeat(1 << 20);
    let mut finding = finding(
        "http/x",
        &url,
        vec![Evidence::Note {
            text: message.clone(),
        }],
    );
    finding.finding.message = message.clone();
    report.findings = vec![finding];
    let pages = read(bytes_of(&report, Table::Pages), Table::Pages);
    assert_eq!(strings(&pages, "url"), [Some(url.clone())]);
    let findings = read(bytes_of(&report, Table::Findings), Table::Findings);
    assert_eq!(strings(&findings, "message"), [Some(message)]);
    let verdicts = read(bytes_of(&report, Table::Verdicts), Table::Verdicts);
    assert_eq!(strings(&verdicts, "url"), [Some(url)]);
}

#[test]
fn write_tables_writes_every_file_into_the_folder_atomically() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("crawlgate-parquet-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let nested = dir.join("reports");
    let written = write_tables(&rich(), &nested).unwrap();
    assert_eq!(
        written,
        Table::ALL
            .iter()
            .map(|t| nested.join(t.file_name()))
            .collect::<Vec<_>>()
    );
    let mut names: Vec<String> = std::fs::read_dir(&nested)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected: Vec<String> = Table::ALL
        .iter()
        .map(|t| t.file_name().to_owned())
        .collect();
    expected.sort();
    assert_eq!(names, expected, "no temporary file left");
    for table in Table::ALL {
        let on_disk = std::fs::read(nested.join(table.file_name())).unwrap();
        assert_eq!(on_disk, bytes_of(&rich(), table));
    }
    // A folder in the way of a file: that file fails, the others are still written.
    std::fs::remove_file(nested.join("links.parquet")).unwrap();
    std::fs::create_dir(nested.join("links.parquet")).unwrap();
    let Err(crate::Error::SomeFailed { written, failed }) = write_tables(&rich(), &nested) else {
        panic!("a folder named links.parquet must fail that table");
    };
    assert_eq!(written.len(), Table::ALL.len() - 1);
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, Table::Links);
    assert!(
        failed[0].1.to_string().contains("links.parquet"),
        "{}",
        failed[0].1
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `report` with its page records in a page store, as an audit past `--pages-in-memory`
/// leaves them.
fn stored(report: &Report) -> Report {
    let mut pages =
        crawlgate_report::PageTable::in_store(std::sync::Arc::new(MemoryPageStore::default()));
    for page in &report.pages {
        pages.push(page.into_owned()).unwrap();
    }
    assert!(pages.is_stored());
    Report {
        pages,
        ..report.clone()
    }
}

#[test]
fn page_records_in_the_page_store_give_the_same_files_read_a_chunk_at_a_time() {
    let mut large = minimal();
    // Chunks of page records and row groups end at different rows.
    let pages = 2 * crate::ROWS_PER_GROUP + crate::PAGE_CHUNK + 7;
    large.pages = (0..pages)
        .map(|i| {
            let mut page = page(&format!("https://example.test/p/{i:06}"));
            page.in_sitemaps = vec!["https://example.test/sitemap.xml".to_owned()];
            page
        })
        .collect();
    for report in [rich(), large] {
        for table in Table::ALL {
            assert!(
                bytes_of(&stored(&report), table) == bytes_of(&report, table),
                "{table:?}"
            );
        }
    }
}

#[test]
fn a_page_record_that_cannot_be_read_back_fails_the_tables_that_read_it() {
    /// A store that keeps nothing it is given.
    #[derive(Debug)]
    struct Forgetful;
    impl crawlgate_core::site::PageStore for Forgetful {
        fn put(&self, _: &[u8]) -> std::io::Result<crawlgate_core::site::PageKey> {
            Ok(crawlgate_core::site::PageKey { offset: 0, len: 9 })
        }
        fn get(&self, _: crawlgate_core::site::PageKey, _: &mut Vec<u8>) -> std::io::Result<()> {
            Err(std::io::ErrorKind::UnexpectedEof.into())
        }
    }
    let mut report = rich();
    let mut pages = crawlgate_report::PageTable::in_store(std::sync::Arc::new(Forgetful));
    pages.push(page("https://example.test/")).unwrap();
    report.pages = pages;
    let error = write_table(&report, Table::Pages, Vec::new()).unwrap_err();
    assert!(matches!(error, crate::Error::PageRecords(_)), "{error}");
    // The findings table reads no page record.
    assert!(write_table(&report, Table::Findings, Vec::new()).is_ok());
}
