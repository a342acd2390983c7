//! Rows to Parquet: batches of rows become Arrow arrays, one row group each, Snappy-compressed;
//! each file written atomically beside the other reports.

use crate::schema::{Col, Get, Table};
use crate::tables;
use arrow_array::builder::{
    BooleanBuilder, StringBuilder, UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, Schema};
use crawlgate_report::{PageTable, Report};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{DEFAULT_CREATED_BY, WriterProperties};
use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most rows in a row group: a table is built and written a batch at a time, so a
/// 100,000-page report never becomes one giant array.
pub const ROWS_PER_GROUP: usize = 16_384;

/// The most string bytes of a batch: a batch is cut short before it passes this, which keeps
/// each column's Arrow offsets (32-bit) far from overflowing.
const BATCH_BYTES: usize = 64 << 20;

/// The longest value a string column takes. A report holds none this long (its own bounds cut
/// every string far shorter); a longer one is [`Error::ValueTooLong`], never a panic.
pub const MAX_VALUE_BYTES: usize = 256 << 20;

/// The files' `created_by`: this crate's version and the Parquet library's own
/// `parquet-rs version N` (readers recognise writers by it); no date, no host, so the same report
/// gives the same bytes.
pub fn created_by() -> String {
    format!(
        "crawlgate-parquet version {} ({DEFAULT_CREATED_BY})",
        env!("CARGO_PKG_VERSION")
    )
}

/// What can go wrong writing the tables.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot write `{}`: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("writing {table}: {source}")]
    Write {
        table: &'static str,
        source: io::Error,
    },
    #[error("Parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error("Arrow: {0}")]
    Arrow(#[from] ArrowError),
    /// The report's page records could not be read back from the page store.
    #[error("the report's page records: {0}")]
    PageRecords(String),
    #[error("evidence as JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error(
        "{table}.{column}: a value of {bytes} bytes is longer than the {MAX_VALUE_BYTES} a column takes"
    )]
    ValueTooLong {
        table: &'static str,
        column: &'static str,
        bytes: usize,
    },
    /// The tables were written but for these (each tried: one failure costs only its file).
    #[error("{}", failed.iter().map(|(_, e)| e.to_string()).collect::<Vec<_>>().join("; "))]
    SomeFailed {
        written: Vec<PathBuf>,
        failed: Vec<(Table, Error)>,
    },
}

/// Write every table of `report` into `dir` (created if missing), each file atomically through
/// [`crawlgate_report::write_file_atomically`]; the paths written, in [`Table::ALL`] order.
///
/// A file is rendered in memory (its compressed size; the row group being built is in memory
/// anyway) and then written: the Parquet writer wants a `Send` writer, which the atomic write's
/// is not.
pub fn write_tables(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let held = pages_held(report)?;
    let report = held.as_ref().unwrap_or(report);
    let mut written = Vec::new();
    let mut failed = Vec::new();
    for table in Table::ALL {
        let path = dir.join(table.file_name());
        let result = write_table(report, table, Vec::new()).and_then(|bytes| {
            crawlgate_report::write_file_atomically(&path, |out| out.write_all(&bytes)).map_err(
                |source| Error::Io {
                    path: path.clone(),
                    source,
                },
            )
        });
        match result {
            Ok(()) => written.push(path),
            Err(error) => failed.push((table, error)),
        }
    }
    if failed.is_empty() {
        Ok(written)
    } else {
        Err(Error::SomeFailed { written, failed })
    }
}

/// Write one table of `report` as a Parquet file into `out`; `out` back, flushed.
///
/// A report whose page records are in the page store has them read back into memory first.
pub fn write_table<W: Write + Send>(report: &Report, table: Table, out: W) -> Result<W, Error> {
    if let Some(held) = pages_held(report)? {
        return write_table(&held, table, out);
    }
    let file = TableFile { report, table };
    match table {
        Table::Pages => file.write(
            &tables::pages::columns(),
            tables::pages::rows(report).map(Ok),
            out,
        ),
        Table::Verdicts => file.write(
            &tables::verdicts::columns(),
            tables::verdicts::rows(report).map(Ok),
            out,
        ),
        Table::Links => file.write(
            &tables::links::columns(),
            tables::links::rows(report).map(Ok),
            out,
        ),
        Table::Findings => file.write(
            &tables::findings::columns(),
            tables::findings::rows(report),
            out,
        ),
        Table::Sitemaps => file.write(
            &tables::sitemaps::columns(),
            tables::sitemaps::rows(report).map(Ok),
            out,
        ),
        Table::SitemapEntries => file.write(
            &tables::sitemap_entries::columns(),
            tables::sitemap_entries::rows(report).map(Ok),
            out,
        ),
    }
}

/// `report` with its page records in memory, when they are in the page store: the tables'
/// rows borrow from them.
// A stored table could be read a batch at a time instead; rows borrow from their records,
// so that waits for batches that copy each row's values as it comes.
fn pages_held(report: &Report) -> Result<Option<Report>, Error> {
    if !report.pages.is_stored() {
        return Ok(None);
    }
    let pages: PageTable = report.pages.iter().map(Cow::into_owned).collect();
    if let Some(error) = report.pages.read_error() {
        return Err(Error::PageRecords(error.to_owned()));
    }
    Ok(Some(Report {
        pages,
        ..report.clone()
    }))
}

struct TableFile<'r> {
    report: &'r Report,
    table: Table,
}

impl TableFile<'_> {
    fn properties(&self) -> WriterProperties {
        let metadata = [
            ("crawlgate.table", self.table.name().to_owned()),
            (
                "crawlgate.schema_version",
                crate::SCHEMA_VERSION.to_string(),
            ),
            (
                "crawlgate.report_schema_version",
                self.report.schema_version.to_string(),
            ),
            ("crawlgate.tool_version", self.report.tool.version.clone()),
        ]
        .into_iter()
        .map(|(key, value)| KeyValue::new(key.to_owned(), value))
        .collect();
        WriterProperties::builder()
            .set_created_by(created_by())
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROWS_PER_GROUP))
            .set_key_value_metadata(Some(metadata))
            .build()
    }

    fn write<R, W: Write + Send>(
        &self,
        columns: &[Col<R>],
        rows: impl Iterator<Item = Result<R, Error>>,
        out: W,
    ) -> Result<W, Error> {
        let schema = Arc::new(Schema::new(
            columns
                .iter()
                .map(|c| c.describe().field())
                .collect::<Vec<_>>(),
        ));
        let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(self.properties()))?;
        let mut batch: Vec<R> = Vec::new();
        let mut batch_bytes = 0;
        for row in rows {
            let row = row?;
            let bytes = self.string_bytes(columns, &row)?;
            if !batch.is_empty()
                && (batch.len() >= ROWS_PER_GROUP || batch_bytes + bytes > BATCH_BYTES)
            {
                write_batch(&mut writer, &schema, columns, &batch)?;
                batch.clear();
                batch_bytes = 0;
            }
            batch.push(row);
            batch_bytes += bytes;
        }
        if !batch.is_empty() {
            write_batch(&mut writer, &schema, columns, &batch)?;
        }
        let mut out = writer.into_inner()?;
        out.flush().map_err(|source| Error::Write {
            table: self.table.name(),
            source,
        })?;
        Ok(out)
    }

    /// The bytes of a row's strings; an error for a value too long for a column.
    fn string_bytes<R>(&self, columns: &[Col<R>], row: &R) -> Result<usize, Error> {
        let mut total = 0usize;
        for column in columns {
            let bytes = match column.get {
                Get::Str(get) => get(row).len(),
                Get::OptStr(get) => get(row).map_or(0, str::len),
                _ => 0,
            };
            if bytes > MAX_VALUE_BYTES {
                return Err(Error::ValueTooLong {
                    table: self.table.name(),
                    column: column.name,
                    bytes,
                });
            }
            total = total.saturating_add(bytes);
        }
        Ok(total)
    }
}

/// One batch of rows as one row group.
fn write_batch<R, W: Write + Send>(
    writer: &mut ArrowWriter<W>,
    schema: &Arc<Schema>,
    columns: &[Col<R>],
    rows: &[R],
) -> Result<(), Error> {
    let arrays: Vec<ArrayRef> = columns.iter().map(|column| array(column, rows)).collect();
    let batch = RecordBatch::try_new(schema.clone(), arrays)?;
    writer.write(&batch)?;
    // Each batch its own row group, whatever its size: memory stays at one batch.
    writer.flush()?;
    Ok(())
}

/// One column of a batch.
fn array<R>(column: &Col<R>, rows: &[R]) -> ArrayRef {
    match column.get {
        Get::Str(get) => {
            let bytes = rows.iter().map(|row| get(row).len()).sum();
            let mut builder = StringBuilder::with_capacity(rows.len(), bytes);
            for row in rows {
                builder.append_value(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::OptStr(get) => {
            let bytes = rows.iter().map(|row| get(row).map_or(0, str::len)).sum();
            let mut builder = StringBuilder::with_capacity(rows.len(), bytes);
            for row in rows {
                builder.append_option(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::OptU16(get) => {
            let mut builder = UInt16Builder::with_capacity(rows.len());
            for row in rows {
                builder.append_option(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::U32(get) => {
            let mut builder = UInt32Builder::with_capacity(rows.len());
            for row in rows {
                builder.append_value(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::OptU32(get) => {
            let mut builder = UInt32Builder::with_capacity(rows.len());
            for row in rows {
                builder.append_option(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::U64(get) => {
            let mut builder = UInt64Builder::with_capacity(rows.len());
            for row in rows {
                builder.append_value(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::Bool(get) => {
            let mut builder = BooleanBuilder::with_capacity(rows.len());
            for row in rows {
                builder.append_value(get(row));
            }
            Arc::new(builder.finish())
        }
        Get::OptBool(get) => {
            let mut builder = BooleanBuilder::with_capacity(rows.len());
            for row in rows {
                builder.append_option(get(row));
            }
            Arc::new(builder.finish())
        }
    }
}
