//! Rows to Parquet: batches of rows become Arrow arrays, one row group each, Snappy-compressed;
//! each file written atomically beside the other reports.

use crate::schema::{Col, Get, Table};
use crate::tables;
use arrow_array::builder::{
    BooleanBuilder, StringBuilder, UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, Schema};
use crawlgate_report::Report;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{DEFAULT_CREATED_BY, WriterProperties};
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
/// The tables made from the report's page records read them [`PAGE_CHUNK`] at a time: a report
/// whose records are in the page store is never read back whole.
pub fn write_table<W: Write + Send>(report: &Report, table: Table, out: W) -> Result<W, Error> {
    let file = TableFile { report, table };
    let failures = report.pages.read_failures();
    let written = match table {
        Table::Pages => {
            let context = tables::pages::Context::of(report);
            let mut batches = file.batches(&tables::pages::columns(), out)?;
            for chunk in report.pages.chunks(PAGE_CHUNK) {
                let columns = tables::pages::columns();
                for row in context.rows(&chunk) {
                    batches.push(&columns, &row)?;
                }
            }
            batches
        }
        Table::Verdicts => {
            let expected = &report.target.expected_blocked;
            let mut batches = file.batches(&tables::verdicts::columns(), out)?;
            for chunk in report.pages.chunks(PAGE_CHUNK) {
                let columns = tables::verdicts::columns();
                for row in tables::verdicts::rows(expected, &chunk) {
                    batches.push(&columns, &row)?;
                }
            }
            batches
        }
        Table::Links => {
            let columns = tables::links::columns();
            let mut batches = file.batches(&columns, out)?;
            for row in tables::links::quoted_rows(report) {
                batches.push(&columns, &row)?;
            }
            for chunk in report.pages.chunks(PAGE_CHUNK) {
                let columns = tables::links::columns();
                for row in tables::links::rendered_rows(&chunk) {
                    batches.push(&columns, &row)?;
                }
            }
            batches
        }
        Table::Findings => {
            let columns = tables::findings::columns();
            let mut batches = file.batches(&columns, out)?;
            for row in tables::findings::rows(report) {
                batches.push(&columns, &row?)?;
            }
            batches
        }
        Table::Sitemaps => {
            let columns = tables::sitemaps::columns();
            let mut batches = file.batches(&columns, out)?;
            for row in tables::sitemaps::rows(report) {
                batches.push(&columns, &row)?;
            }
            batches
        }
        Table::SitemapEntries => {
            let mut batches = file.batches(&tables::sitemap_entries::columns(), out)?;
            for chunk in report.pages.chunks(PAGE_CHUNK) {
                let columns = tables::sitemap_entries::columns();
                for row in tables::sitemap_entries::rows(&chunk) {
                    batches.push(&columns, &row)?;
                }
            }
            batches
        }
    };
    // A page record that could not be read back ended this table's rows early.
    if report.pages.read_failures() > failures {
        let error = report.pages.read_error().unwrap_or_default();
        return Err(Error::PageRecords(error.to_owned()));
    }
    written.finish()
}

/// Page records read back from the page store at a time (rows are made from each chunk
/// before the next is read).
pub const PAGE_CHUNK: usize = 4_096;

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

    /// A writer of this table's rows into `out`, whose schema is `columns`'.
    fn batches<R, W: Write + Send>(&self, columns: &[Col<R>], out: W) -> Result<Batches<W>, Error> {
        let schema = Arc::new(Schema::new(
            columns
                .iter()
                .map(|c| c.describe().field())
                .collect::<Vec<_>>(),
        ));
        Ok(Batches {
            table: self.table,
            writer: ArrowWriter::try_new(out, schema.clone(), Some(self.properties()))?,
            schema,
            builders: columns
                .iter()
                .map(|column| Builder::for_get(&column.get))
                .collect(),
            rows: 0,
            bytes: 0,
        })
    }
}

/// Rows becoming row groups: each row's values go into the column builders as it comes (so
/// a row need not outlive the page records it borrows from), and every [`ROWS_PER_GROUP`]
/// rows, or before the strings pass [`BATCH_BYTES`], the builders become one row group.
struct Batches<W: Write + Send> {
    table: Table,
    writer: ArrowWriter<W>,
    schema: Arc<Schema>,
    builders: Vec<Builder>,
    /// Rows and string bytes in the builders.
    rows: usize,
    bytes: usize,
}

impl<W: Write + Send> Batches<W> {
    /// Add `row`, whose columns are `columns` (the table's, those the builders were made for).
    fn push<R>(&mut self, columns: &[Col<R>], row: &R) -> Result<(), Error> {
        let bytes = string_bytes(self.table, columns, row)?;
        if self.rows > 0 && (self.rows >= ROWS_PER_GROUP || self.bytes + bytes > BATCH_BYTES) {
            self.write_batch()?;
        }
        for (builder, column) in self.builders.iter_mut().zip(columns) {
            builder.append(&column.get, row);
        }
        self.rows += 1;
        self.bytes += bytes;
        Ok(())
    }

    /// The rows in the builders as one row group.
    fn write_batch(&mut self) -> Result<(), Error> {
        let arrays: Vec<ArrayRef> = self.builders.iter_mut().map(Builder::finish).collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays)?;
        self.writer.write(&batch)?;
        // Each batch its own row group, whatever its size: memory stays at one batch.
        self.writer.flush()?;
        self.rows = 0;
        self.bytes = 0;
        Ok(())
    }

    /// The last row group, the footer; `out` back, flushed.
    fn finish(mut self) -> Result<W, Error> {
        if self.rows > 0 {
            self.write_batch()?;
        }
        let mut out = self.writer.into_inner()?;
        out.flush().map_err(|source| Error::Write {
            table: self.table.name(),
            source,
        })?;
        Ok(out)
    }
}

/// The bytes of a row's strings; an error for a value too long for a column.
fn string_bytes<R>(table: Table, columns: &[Col<R>], row: &R) -> Result<usize, Error> {
    let mut total = 0usize;
    for column in columns {
        let bytes = match column.get {
            Get::Str(get) => get(row).len(),
            Get::OptStr(get) => get(row).map_or(0, str::len),
            _ => 0,
        };
        if bytes > MAX_VALUE_BYTES {
            return Err(Error::ValueTooLong {
                table: table.name(),
                column: column.name,
                bytes,
            });
        }
        total = total.saturating_add(bytes);
    }
    Ok(total)
}

/// One column's values of the row group being built.
enum Builder {
    Str(StringBuilder),
    U16(UInt16Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    Bool(BooleanBuilder),
}

impl Builder {
    fn for_get<R>(get: &Get<R>) -> Builder {
        match get {
            Get::Str(_) | Get::OptStr(_) => Builder::Str(StringBuilder::new()),
            Get::OptU16(_) => Builder::U16(UInt16Builder::new()),
            Get::U32(_) | Get::OptU32(_) => Builder::U32(UInt32Builder::new()),
            Get::U64(_) => Builder::U64(UInt64Builder::new()),
            Get::Bool(_) | Get::OptBool(_) => Builder::Bool(BooleanBuilder::new()),
        }
    }

    /// Append `row`'s value. The builder was made for this column ([`Builder::for_get`]); were
    /// it not, the column would come out short and the row group be refused, not a panic.
    fn append<R>(&mut self, get: &Get<R>, row: &R) {
        match (self, get) {
            (Builder::Str(builder), Get::Str(get)) => builder.append_value(get(row)),
            (Builder::Str(builder), Get::OptStr(get)) => builder.append_option(get(row)),
            (Builder::U16(builder), Get::OptU16(get)) => builder.append_option(get(row)),
            (Builder::U32(builder), Get::U32(get)) => builder.append_value(get(row)),
            (Builder::U32(builder), Get::OptU32(get)) => builder.append_option(get(row)),
            (Builder::U64(builder), Get::U64(get)) => builder.append_value(get(row)),
            (Builder::Bool(builder), Get::Bool(get)) => builder.append_value(get(row)),
            (Builder::Bool(builder), Get::OptBool(get)) => builder.append_option(get(row)),
            _ => {}
        }
    }

    /// The values appended since the last call, as an array; the builder starts again empty.
    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Str(builder) => Arc::new(builder.finish()),
            Builder::U16(builder) => Arc::new(builder.finish()),
            Builder::U32(builder) => Arc::new(builder.finish()),
            Builder::U64(builder) => Arc::new(builder.finish()),
            Builder::Bool(builder) => Arc::new(builder.finish()),
        }
    }
}
