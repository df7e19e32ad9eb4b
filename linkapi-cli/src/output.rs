//! What goes to stdout: tables on a terminal, tab-separated rows without a header when piped,
//! JSON with `--json[=FIELDS]`. Messages go to stderr through [`Output::note`] and friends.

#![allow(clippy::print_stdout, clippy::print_stderr)] // this module is where output happens

use std::io::{IsTerminal, Write};

use comfy_table::{ColumnConstraint, ContentArrangement, Row, Table, Width, presets};
use serde::Serialize;
use serde_json::Value;

use crate::exit::UsageError;

/// One column of a table.
pub struct Column<T> {
    /// Header, upper case.
    pub header: &'static str,
    /// The cell of a row.
    pub cell: fn(&T) -> String,
}

/// A column with `header` whose cells `cell` computes.
pub fn col<T>(header: &'static str, cell: fn(&T) -> String) -> Column<T> {
    Column { header, cell }
}

/// A record the CLI prints: its JSON form, whose fields (for validating `--json=FIELDS`) its
/// schema names ([`schema_fields`]), and its table columns.
pub trait Record: Serialize + schemars::JsonSchema {
    /// Table columns.
    fn columns() -> Vec<Column<Self>>
    where
        Self: Sized;
}

/// Terminal facts, decided once.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    /// stdout is a terminal: tables with headers, pretty JSON.
    pub stdout_tty: bool,
    /// stderr is a terminal: confirmations and progress bars.
    pub stderr_tty: bool,
    /// Colour allowed (a terminal and no `NO_COLOR`).
    pub color: bool,
}

impl Output {
    /// Looks at the terminal and the environment.
    pub fn detect() -> Self {
        let stdout_tty = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Output {
            stdout_tty,
            stderr_tty: std::io::stderr().is_terminal(),
            color: stdout_tty && !no_color,
        }
    }

    /// A line of data on stdout.
    pub fn line(&self, text: &str) {
        println!("{text}");
    }

    /// A confirmation on stderr, only for people at a terminal.
    pub fn success(&self, text: &str) {
        if self.stderr_tty {
            eprintln!("✓ {text}");
        }
    }

    /// What a command that prints no data did, on stderr: `✓ text` on a terminal, the plain
    /// text when piped, so a script's log still says what happened.
    pub fn done(&self, text: &str) {
        if self.stderr_tty {
            eprintln!("✓ {text}");
        } else {
            eprintln!("{text}");
        }
    }

    /// A message on stderr.
    pub fn note(&self, text: &str) {
        eprintln!("{text}");
    }

    /// A warning on stderr.
    pub fn warn(&self, text: &str) {
        eprintln!("warning: {text}");
    }

    /// Prints JSON: pretty on a terminal, compact when piped.
    pub fn json(&self, value: &Value) {
        let text = if self.stdout_tty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        };
        println!("{}", text.unwrap_or_default());
    }

    /// Prints records as JSON (when `json` is given) or as a table.
    ///
    /// # Errors
    /// [`UsageError`] for an unknown field in `json`.
    pub fn records<T: Record>(
        &self,
        rows: &[T],
        json: Option<&str>,
        single: bool,
    ) -> anyhow::Result<()> {
        if let Some(fields) = json {
            let available = schema_fields::<T>();
            let available: Vec<&str> = available.iter().map(String::as_str).collect();
            let fields = parse_fields(fields, &available)?;
            let values: Vec<Value> = rows
                .iter()
                .map(|r| select(serde_json::to_value(r).unwrap_or(Value::Null), &fields))
                .collect();
            match (single, values.as_slice()) {
                (true, [one]) => self.json(one),
                _ => self.json(&Value::Array(values)),
            }
            return Ok(());
        }
        let columns = T::columns();
        if self.stdout_tty
            && single
            && let [row] = rows
        {
            // One record, a field a line: its values whole, however many fields it has.
            let mut table = self.table(["FIELD", "VALUE"]);
            for column in &columns {
                table.add_row([column.header.to_owned(), (column.cell)(row)]);
            }
            println!("{table}");
        } else if self.stdout_tty {
            let columns = fitted(columns, rows, usize::from(self.width()));
            let mut table = self.table(columns.iter().map(|(c, _)| c.header));
            // The link people copy, and every short value (ids, codes, dates, states), is never
            // wrapped or cut: long free text gives way, down to its floor.
            for (i, (_, floor)) in columns.iter().enumerate() {
                let constraint = match floor {
                    Floor::Whole(_) => ColumnConstraint::ContentWidth,
                    // comfy-table's widths include the cell's padding, one space a side.
                    Floor::Cut(width) => ColumnConstraint::LowerBoundary(Width::Fixed(
                        u16::try_from(width + 2).unwrap_or(u16::MAX),
                    )),
                };
                if let Some(column) = table.column_mut(i) {
                    column.set_constraint(constraint);
                }
            }
            // A listing keeps a row to a line, cutting long titles and targets ("…").
            table.set_truncation_indicator("…");
            for row in rows {
                let mut line = Row::from(columns.iter().map(|(c, _)| (c.cell)(row)));
                line.max_height(1);
                table.add_row(line);
            }
            println!("{table}");
        } else {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for row in rows {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| (c.cell)(row).replace(['\t', '\n'], " "))
                    .collect();
                // A closed pipe (`| head`) is not an error worth reporting.
                if writeln!(out, "{}", cells.join("\t")).is_err() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Columns to lay output out for: the terminal's. A terminal that reports no width (0
    /// columns, as under `script` or a serial console) would squeeze every table column to one
    /// character: then `COLUMNS`, as the shell says, or else 80.
    pub fn width(&self) -> u16 {
        let columns = || {
            std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse::<u16>().ok())
        };
        [Table::new().width(), columns()]
            .into_iter()
            .flatten()
            .find(|&width| width >= MIN_TABLE_WIDTH)
            .unwrap_or(FALLBACK_TABLE_WIDTH)
    }

    /// An empty terminal table in the CLI's style, with `headers`.
    pub fn table<H: Into<comfy_table::Cell>>(&self, headers: impl IntoIterator<Item = H>) -> Table {
        let mut table = Table::new();
        table
            .load_style(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_header(headers);
        table.set_width(self.width());
        if !self.color {
            table.force_no_tty();
        }
        table
    }

    /// Prints one record.
    ///
    /// # Errors
    /// As [`Output::records`].
    pub fn record<T: Record>(&self, row: &T, json: Option<&str>) -> anyhow::Result<()> {
        self.records(std::slice::from_ref(row), json, true)
    }
}

/// How narrow a table column may be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Floor {
    /// Not at all: its widest cell (or header), for the URL and for columns of short values.
    Whole(usize),
    /// Cut with "…" down to this, for long free text (targets, titles, names).
    Cut(usize),
}

impl Floor {
    fn width(self) -> usize {
        match self {
            Floor::Whole(width) | Floor::Cut(width) => width,
        }
    }
}

/// A column whose every cell is at most this wide holds short values (ids, codes, states,
/// times such as `2026-12-02T07:58:21Z`) and is never cut.
const SHORT_VALUES: usize = 24;
/// Longer free text is cut no shorter than this (or its header): enough to tell values apart.
const CUT_FLOOR: usize = 10;

/// The columns of a listing that fit `width`, each with its floor: every header whole, the
/// URL and every column of short values ([`SHORT_VALUES`]) whole, long text cut no shorter
/// than [`CUT_FLOOR`]. The last columns (the least asked for) are left out, whole, until the
/// rest fit; the URL column stays, and `--json` or a pipe gives every column.
fn fitted<T>(columns: Vec<Column<T>>, rows: &[T], width: usize) -> Vec<(Column<T>, Floor)> {
    let mut columns: Vec<(Column<T>, Floor)> = columns
        .into_iter()
        .map(|column| {
            let header = column.header.chars().count();
            let widest = rows
                .iter()
                .map(|row| (column.cell)(row).chars().count())
                .max()
                .unwrap_or(0)
                .max(header);
            let floor = if column.header == WHOLE_COLUMN || widest <= header.max(SHORT_VALUES) {
                Floor::Whole(widest)
            } else {
                Floor::Cut(header.max(CUT_FLOOR))
            };
            (column, floor)
        })
        .collect();
    // A column takes its floor, padding and a border; the table one border more.
    let needed = |columns: &[(Column<T>, Floor)]| {
        1 + columns
            .iter()
            .map(|(_, floor)| floor.width() + 3)
            .sum::<usize>()
    };
    while columns.len() > 1 && needed(&columns) > width {
        let Some(last) = columns.iter().rposition(|(c, _)| c.header != WHOLE_COLUMN) else {
            break;
        };
        columns.remove(last);
    }
    columns
}

/// The header of the column no table wraps or cuts: a link people copy.
const WHOLE_COLUMN: &str = "URL";

/// Columns a table is laid out for when the terminal does not say how wide it is.
const FALLBACK_TABLE_WIDTH: u16 = 80;
/// Narrower than this, a terminal's width is taken as not known.
const MIN_TABLE_WIDTH: u16 = 20;

/// The top-level fields of `T`'s JSON form, read from its schema (the one the API document
/// gives it): its properties, those of what it flattens in, and those of every variant of
/// what it may be.
pub fn schema_fields<T: schemars::JsonSchema>() -> Vec<String> {
    let schema = schemars::schema_for!(T);
    let root = schema.as_value();
    let mut fields = Vec::new();
    collect_fields(root, root, &mut fields);
    fields
}

fn collect_fields(schema: &Value, root: &Value, fields: &mut Vec<String>) {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str)
        && let Some(target) = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
    {
        collect_fields(target, root, fields);
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for name in properties.keys() {
            if !fields.contains(name) {
                fields.push(name.clone());
            }
        }
    }
    for combined in ["allOf", "anyOf", "oneOf"] {
        for part in schema
            .get(combined)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect_fields(part, root, fields);
        }
    }
}

/// Splits and checks `--json=FIELDS`; empty means every field.
fn parse_fields(spec: &str, available: &[&str]) -> Result<Vec<String>, UsageError> {
    let fields: Vec<String> = spec
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(unknown) = fields.iter().find(|f| !available.contains(&f.as_str())) {
        return Err(UsageError(format!(
            "unknown JSON field {unknown:?}; available fields: {}",
            available.join(", ")
        )));
    }
    Ok(fields)
}

fn select(value: Value, fields: &[String]) -> Value {
    match value {
        Value::Object(map) if !fields.is_empty() => Value::Object(
            map.into_iter()
                .filter(|(k, _)| fields.contains(k))
                .collect(),
        ),
        other => other,
    }
}

/// A nullable integer cell.
pub fn opt<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map(ToString::to_string).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_checked_and_selected() {
        let available = ["id", "code"];
        assert_eq!(
            parse_fields("", &available).expect("all"),
            Vec::<String>::new()
        );
        assert_eq!(
            parse_fields("code, id", &available).expect("two"),
            ["code", "id"]
        );
        let err = parse_fields("code,nope", &available).expect_err("unknown");
        assert!(
            err.0.contains("\"nope\"") && err.0.contains("id, code"),
            "{}",
            err.0
        );
        let value = serde_json::json!({"id": 1, "code": "x"});
        assert_eq!(
            select(value.clone(), &["code".into()]),
            serde_json::json!({"code": "x"})
        );
        assert_eq!(select(value.clone(), &[]), value);
    }
}
