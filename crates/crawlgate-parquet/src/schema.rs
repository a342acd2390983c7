//! The tables and their columns: the one description the files, [`Table::schema`] and the
//! README's "Parquet export" section ([`schema_markdown`]) are made from.

use crate::tables;
use arrow_schema::{DataType, Field, Schema};
use std::fmt::Write as _;

/// One of the files `--format parquet` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Table {
    /// `pages.parquet`: every known URL.
    Pages,
    /// `verdicts.parquet`: each URL as each crawler profile sees it.
    Verdicts,
    /// `links.parquet`: the links the report quotes.
    Links,
    /// `findings.parquet`: every finding.
    Findings,
    /// `sitemaps.parquet`: every sitemap met.
    Sitemaps,
    /// `sitemap_entries.parquet`: which sitemap lists which URL.
    SitemapEntries,
}

impl Table {
    /// Every table, in the order the files are written and documented.
    pub const ALL: [Table; 6] = [
        Table::Pages,
        Table::Verdicts,
        Table::Links,
        Table::Findings,
        Table::Sitemaps,
        Table::SitemapEntries,
    ];

    /// The table's name: its file name without `.parquet`.
    pub fn name(self) -> &'static str {
        match self {
            Table::Pages => "pages",
            Table::Verdicts => "verdicts",
            Table::Links => "links",
            Table::Findings => "findings",
            Table::Sitemaps => "sitemaps",
            Table::SitemapEntries => "sitemap_entries",
        }
    }

    /// The file it is written to, in the output folder.
    pub fn file_name(self) -> &'static str {
        match self {
            Table::Pages => "pages.parquet",
            Table::Verdicts => "verdicts.parquet",
            Table::Links => "links.parquet",
            Table::Findings => "findings.parquet",
            Table::Sitemaps => "sitemaps.parquet",
            Table::SitemapEntries => "sitemap_entries.parquet",
        }
    }

    /// What a row is, and in which order the rows come (Markdown).
    pub fn description(self) -> &'static str {
        match self {
            Table::Pages => tables::pages::DESCRIPTION,
            Table::Verdicts => tables::verdicts::DESCRIPTION,
            Table::Links => tables::links::DESCRIPTION,
            Table::Findings => tables::findings::DESCRIPTION,
            Table::Sitemaps => tables::sitemaps::DESCRIPTION,
            Table::SitemapEntries => tables::sitemap_entries::DESCRIPTION,
        }
    }

    /// The columns, in file order.
    pub fn columns(self) -> Vec<Column> {
        fn describe<R>(columns: &[Col<R>]) -> Vec<Column> {
            columns.iter().map(Col::describe).collect()
        }
        match self {
            Table::Pages => describe(&tables::pages::columns()),
            Table::Verdicts => describe(&tables::verdicts::columns()),
            Table::Links => describe(&tables::links::columns()),
            Table::Findings => describe(&tables::findings::columns()),
            Table::Sitemaps => describe(&tables::sitemaps::columns()),
            Table::SitemapEntries => describe(&tables::sitemap_entries::columns()),
        }
    }

    /// The Arrow schema of the file (no schema-level metadata).
    pub fn schema(self) -> Schema {
        Schema::new(
            self.columns()
                .iter()
                .map(Column::field)
                .collect::<Vec<Field>>(),
        )
    }
}

/// The type of a column. Every column is one of these: no nested or list columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// A UTF-8 string (Parquet `BYTE_ARRAY` annotated `STRING`).
    Utf8,
    /// An unsigned 16-bit integer (Parquet `INT32` annotated `INTEGER(16, false)`).
    UInt16,
    /// An unsigned 32-bit integer (Parquet `INT32` annotated `INTEGER(32, false)`).
    UInt32,
    /// An unsigned 64-bit integer (Parquet `INT64` annotated `INTEGER(64, false)`).
    UInt64,
    /// A boolean.
    Boolean,
}

impl ColumnType {
    /// The Arrow type.
    pub fn data_type(self) -> DataType {
        match self {
            ColumnType::Utf8 => DataType::Utf8,
            ColumnType::UInt16 => DataType::UInt16,
            ColumnType::UInt32 => DataType::UInt32,
            ColumnType::UInt64 => DataType::UInt64,
            ColumnType::Boolean => DataType::Boolean,
        }
    }

    /// The name the README gives it (Arrow's, in lower case).
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::Utf8 => "utf8",
            ColumnType::UInt16 => "uint16",
            ColumnType::UInt32 => "uint32",
            ColumnType::UInt64 => "uint64",
            ColumnType::Boolean => "bool",
        }
    }

    /// The type DuckDB reads it as (what `DESCRIBE` shows).
    pub fn duckdb_type(self) -> &'static str {
        match self {
            ColumnType::Utf8 => "VARCHAR",
            ColumnType::UInt16 => "USMALLINT",
            ColumnType::UInt32 => "UINTEGER",
            ColumnType::UInt64 => "UBIGINT",
            ColumnType::Boolean => "BOOLEAN",
        }
    }
}

/// One column of a table, as documented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub column_type: ColumnType,
    /// Whether it may be null (Parquet `OPTIONAL`; otherwise `REQUIRED`).
    pub nullable: bool,
    /// What it holds (Markdown, one sentence or two).
    pub description: &'static str,
}

impl Column {
    /// The Arrow field.
    pub fn field(&self) -> Field {
        Field::new(self.name, self.column_type.data_type(), self.nullable)
    }
}

/// A column of rows of type `R`: its name, its documentation, and how a row gives its value.
/// The value's type decides the column's type and nullability, so the documented schema is the
/// written one.
pub(crate) struct Col<R> {
    pub(crate) name: &'static str,
    pub(crate) doc: &'static str,
    pub(crate) get: Get<R>,
}

/// How a row gives a column's value.
pub(crate) enum Get<R> {
    Str(fn(&R) -> &str),
    OptStr(fn(&R) -> Option<&str>),
    OptU16(fn(&R) -> Option<u16>),
    U32(fn(&R) -> u32),
    OptU32(fn(&R) -> Option<u32>),
    U64(fn(&R) -> u64),
    Bool(fn(&R) -> bool),
    OptBool(fn(&R) -> Option<bool>),
}

impl<R> Col<R> {
    pub(crate) fn describe(&self) -> Column {
        let (column_type, nullable) = match self.get {
            Get::Str(_) => (ColumnType::Utf8, false),
            Get::OptStr(_) => (ColumnType::Utf8, true),
            Get::OptU16(_) => (ColumnType::UInt16, true),
            Get::U32(_) => (ColumnType::UInt32, false),
            Get::OptU32(_) => (ColumnType::UInt32, true),
            Get::U64(_) => (ColumnType::UInt64, false),
            Get::Bool(_) => (ColumnType::Boolean, false),
            Get::OptBool(_) => (ColumnType::Boolean, true),
        };
        Column {
            name: self.name,
            column_type,
            nullable,
            description: self.doc,
        }
    }
}

/// The README's "Parquet export" schema: per table a heading, its description and a table of
/// its columns (name, type, nullable, meaning). The README holds exactly this between the
/// `<!-- parquet-schema:begin -->` and `<!-- parquet-schema:end -->` markers.
pub fn schema_markdown() -> String {
    let mut out = String::new();
    for table in Table::ALL {
        let _ = write!(
            out,
            "#### `{}`\n\n{}\n\n| column | type | null | meaning |\n|---|---|---|---|\n",
            table.file_name(),
            table.description()
        );
        for column in table.columns() {
            let _ = writeln!(
                out,
                "| `{}` | {} (`{}`) | {} | {} |",
                column.name,
                column.column_type.as_str(),
                column.column_type.duckdb_type(),
                if column.nullable { "yes" } else { "no" },
                column.description
            );
        }
        out.push('\n');
    }
    out.pop();
    out
}
