//! A crawlgate [`Report`] written as Parquet tables, for DuckDB, DataFusion, pandas, Polars or
//! Spark: `pages.parquet`, `verdicts.parquet`, `links.parquet`, `findings.parquet`,
//! `sitemaps.parquet` and `sitemap_entries.parquet` (`crawlgate audit --format parquet`).
//!
//! Flat tables of UTF-8 strings, unsigned integers and booleans (no nested or list columns), a
//! column nullable only where the report may lack the value; [`Table::columns`] is the schema,
//! and the README's "Parquet export" section is [`schema_markdown`] (a test keeps them equal).
//! The tables hold what the report holds, no more: links, in particular, are not kept per page
//! by an audit (their counts are), so `links.parquet` has the links the report quotes.
//!
//! ```no_run
//! # fn demo(report: &crawlgate_report::Report) -> Result<(), crawlgate_parquet::Error> {
//! let written = crawlgate_parquet::write_tables(report, "crawlgate-report".as_ref())?;
//! assert_eq!(written.len(), crawlgate_parquet::Table::ALL.len());
//! # Ok(()) }
//! ```
//!
//! The same report gives the same bytes: rows in report order, one row group per batch of at
//! most [`ROWS_PER_GROUP`] rows, Snappy compression (pure Rust), no timestamp, and a fixed
//! `created_by` ([`created_by`]).

mod schema;
mod tables;
#[cfg(test)]
mod tests;
mod write;

pub use schema::{Column, ColumnType, Table, schema_markdown};
pub use write::{
    Error, MAX_VALUE_BYTES, PAGE_CHUNK, ROWS_PER_GROUP, created_by, write_table, write_tables,
};

/// The `--format` name that selects these tables.
pub const FORMAT: &str = "parquet";

/// Version of the tables' schema, in each file's key-value metadata as `crawlgate.schema_version`.
/// Bumped when a column is renamed, retyped or removed (adding one does not).
pub const SCHEMA_VERSION: u32 = 1;

#[doc(no_inline)]
pub use crawlgate_report::Report;
