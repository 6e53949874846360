//! Arrow data as a trace: record batches (from pyarrow, polars, pandas or
//! Spark, through the Arrow C stream interface) read row by row, each row
//! an event, each column a field, without a Python object per value.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Schema, TimeUnit};
use monitor_core::trace::expr::Cell;
use monitor_core::trace::reader::{Position, Reader, TraceError};
use monitor_core::trace::time::{TimeFormat, TimeSpec, Unit};

/// A column of the current batch, in the few types the checker reads.
enum Column {
    Bool(arrow_array::BooleanArray),
    Int(arrow_array::Int64Array),
    /// Unsigned integers, and their text when some are beyond `i64` (read
    /// as text, which is compared exactly, not as a float).
    UInt(arrow_array::UInt64Array, Option<arrow_array::StringArray>),
    Float(arrow_array::Float64Array),
    Str(arrow_array::StringArray),
    LargeStr(arrow_array::LargeStringArray),
    View(arrow_array::StringViewArray),
    /// Every value is null (a column of the null type).
    Null,
}

impl Column {
    /// The column in a type the checker reads: Booleans, 64-bit integers
    /// (narrower integers, time stamps, dates and durations as their
    /// integer values), 64-bit floats (narrower floats widened, which is
    /// exact), and text (decimals as their exact decimal text, anything
    /// else as its text, dictionaries by their values). Every number is
    /// compared exactly: none goes through a float it is not.
    fn of(array: &ArrayRef) -> Result<Column, ArrowError> {
        use DataType as T;
        let cast = |to: &DataType| arrow_cast::cast(array, to);
        Ok(match array.data_type() {
            T::Null => Column::Null,
            T::Boolean => Column::Bool(array.as_boolean().clone()),
            T::Int64 => Column::Int(array.as_primitive::<Int64Type>().clone()),
            T::UInt64 => {
                let a = array.as_primitive::<UInt64Type>().clone();
                let big = a.values().iter().any(|&v| i64::try_from(v).is_err());
                let text = if big {
                    Some(cast(&T::Utf8)?.as_string::<i32>().clone())
                } else {
                    None
                };
                Column::UInt(a, text)
            }
            T::Float64 => Column::Float(array.as_primitive::<Float64Type>().clone()),
            T::Utf8 => Column::Str(array.as_string::<i32>().clone()),
            T::LargeUtf8 => Column::LargeStr(array.as_string::<i64>().clone()),
            T::Utf8View => Column::View(array.as_string_view().clone()),
            T::Int8 | T::Int16 | T::Int32 | T::UInt8 | T::UInt16 | T::UInt32 => {
                Column::Int(cast(&T::Int64)?.as_primitive::<Int64Type>().clone())
            }
            T::Timestamp(..)
            | T::Date32
            | T::Date64
            | T::Time32(_)
            | T::Time64(_)
            | T::Duration(_) => Column::Int(cast(&T::Int64)?.as_primitive::<Int64Type>().clone()),
            T::Float16 | T::Float32 => {
                Column::Float(cast(&T::Float64)?.as_primitive::<Float64Type>().clone())
            }
            // A decimal's text is its exact value (`123.45`, `-0.001`);
            // as a double it would not be.
            T::Decimal32(..) | T::Decimal64(..) | T::Decimal128(..) | T::Decimal256(..) => {
                Column::Str(cast(&T::Utf8)?.as_string::<i32>().clone())
            }
            _ => Column::Str(cast(&T::Utf8)?.as_string::<i32>().clone()),
        })
    }

    #[inline]
    fn cell(&self, row: usize) -> Option<Cell<'_>> {
        macro_rules! value {
            ($a:expr, $v:expr) => {
                if $a.is_null(row) {
                    None
                } else {
                    Some($v)
                }
            };
        }
        match self {
            Column::Bool(a) => value!(a, Cell::Bool(a.value(row))),
            Column::Int(a) => value!(a, Cell::Int(a.value(row))),
            Column::UInt(a, text) => value!(
                a,
                match (i64::try_from(a.value(row)), text) {
                    (Ok(i), _) => Cell::Int(i),
                    (Err(_), Some(t)) => Cell::Text(t.value(row)),
                    (Err(_), None) => unreachable!("the text of big values is made"),
                }
            ),
            Column::Float(a) => value!(a, Cell::Real(a.value(row))),
            Column::Str(a) => value!(a, Cell::Text(a.value(row))),
            Column::LargeStr(a) => value!(a, Cell::Text(a.value(row))),
            Column::View(a) => value!(a, Cell::Text(a.value(row))),
            Column::Null => None,
        }
    }
}

/// A trace of Arrow record batches: a row is an event, a column a field
/// (by its name; a null value is an absent field). Only the columns the
/// properties read are looked at.
pub struct ArrowReader<I> {
    source: String,
    names: Vec<String>,
    batches: I,
    /// Which columns were resolved (and are converted in each batch).
    wanted: Vec<bool>,
    columns: Vec<Option<Column>>,
    /// Rows of the current batch, and the current row.
    rows: Range<usize>,
    row: usize,
    /// The index of the current event.
    index: u64,
    started: bool,
}

/// The batches of an empty trace.
pub type NoBatches = std::iter::Empty<Result<RecordBatch, ArrowError>>;

impl ArrowReader<NoBatches> {
    /// A reader of no event over columns `names` (to bind properties to
    /// the fields of traces read elsewhere).
    pub fn columns_only(source: &str, names: Vec<String>) -> ArrowReader<NoBatches> {
        ArrowReader::new(source, names, std::iter::empty(), 0)
    }
}

impl<I: Iterator<Item = Result<RecordBatch, ArrowError>>> ArrowReader<I> {
    /// Reads `batches` (of columns `names`), numbering events from `index`.
    pub fn new(source: &str, names: Vec<String>, batches: I, index: u64) -> ArrowReader<I> {
        let n = names.len();
        ArrowReader {
            source: source.to_string(),
            names,
            batches,
            wanted: vec![false; n],
            columns: (0..n).map(|_| None).collect(),
            rows: 0..0,
            row: 0,
            index,
            started: false,
        }
    }

    fn error(&self, message: String) -> TraceError {
        TraceError {
            source: self.source.clone(),
            at: None,
            message,
        }
    }

    /// Moves to the next batch that has rows; `false` at the end.
    fn next_batch(&mut self) -> Result<bool, TraceError> {
        loop {
            let Some(batch) = self.batches.next() else {
                return Ok(false);
            };
            let batch = batch.map_err(|e| self.error(e.to_string()))?;
            if batch.num_columns() != self.names.len() {
                return Err(self.error(format!(
                    "a batch of {} columns in a trace of {}",
                    batch.num_columns(),
                    self.names.len()
                )));
            }
            for (k, wanted) in self.wanted.iter().enumerate() {
                self.columns[k] = if *wanted {
                    Some(Column::of(batch.column(k)).map_err(|e| TraceError {
                        source: self.source.clone(),
                        at: None,
                        message: format!("column `{}`: {e}", self.names[k]),
                    })?)
                } else {
                    None
                };
            }
            if batch.num_rows() > 0 {
                self.rows = 0..batch.num_rows();
                self.row = 0;
                return Ok(true);
            }
        }
    }
}

impl<I: Iterator<Item = Result<RecordBatch, ArrowError>>> Reader for ArrowReader<I> {
    fn source(&self) -> &str {
        &self.source
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        match self.names.iter().position(|n| n == name) {
            Some(k) => {
                self.wanted[k] = true;
                Ok(k)
            }
            None => Err(format!(
                "no column `{name}` (the columns are {})",
                self.names.join(", ")
            )),
        }
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
            self.row += 1;
        }
        self.started = true;
        if self.row < self.rows.end {
            return Ok(true);
        }
        self.next_batch()
    }

    #[inline]
    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.columns.get(id)?.as_ref()?.cell(self.row)
    }

    /// The event's index; its time, when the checker reads one
    /// ([`time_spec`]), is added by the checker.
    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: None,
            time: None,
            timestamp: None,
        }
    }
}

/// The unit an Arrow time unit counts.
fn unit_of(unit: &TimeUnit) -> Unit {
    match unit {
        TimeUnit::Second => Unit::S,
        TimeUnit::Millisecond => Unit::Ms,
        TimeUnit::Microsecond => Unit::Us,
        TimeUnit::Nanosecond => Unit::Ns,
    }
}

/// The events' times of Arrow data: `time` (`FIELD` or `FIELD:FORMAT`,
/// as `mongen check --time` reads it) over the column of that name in
/// `schema`, whose type decides what its values are:
///
/// * time stamps (`timestamp[us, tz=Europe/Paris]`, any unit, any zone or
///   none) are date-times: their integers count their own unit since the
///   epoch in UTC (Arrow's rule, the zone being only how they are shown;
///   one without a zone is taken as UTC), shown in RFC 3339 in UTC, as
///   `--time FIELD:rfc3339` shows a log's. They carry their unit: `:ms`
///   on one is an error (`:rfc3339` is what they are, and allowed);
/// * durations and times of day count their own unit (shown as numbers
///   of it); a unit given is an error here too;
/// * integers (and decimals, read as their exact text) are numbers of the
///   unit given, seconds by default, as the CLI reads a log's;
/// * text is read as the CLI reads a log's (a number of seconds or a
///   date-time; `:ms`, `:rfc3339`);
/// * a column of nulls only has no time at its first row (an error there);
/// * anything else is an error: floats (not exact), Booleans, dates
///   (cast them to time stamps), lists.
///
/// A column that is not in `schema` is left to the checker (its error
/// names the columns).
pub fn time_spec(time: &str, schema: &Schema) -> Result<TimeSpec, String> {
    let mut spec = TimeSpec::parse(time).map_err(|m| format!("time: {m}"))?;
    let Some((_, field)) = schema.column_with_name(&spec.field) else {
        return Ok(spec);
    };
    let own = |unit: Unit, kind: &str, format: TimeFormat| -> Result<TimeFormat, String> {
        match spec.format {
            TimeFormat::Auto => Ok(format),
            TimeFormat::Rfc3339 if matches!(format, TimeFormat::Epoch(_)) => Ok(format),
            _ => Err(format!(
                "time: `{}` is a column of {kind} ({}), which count their own unit ({}): write time=\"{}\" without a format",
                spec.field,
                field.data_type(),
                unit.name(),
                spec.field
            )),
        }
    };
    use DataType as T;
    spec.format = match field.data_type() {
        T::Timestamp(u, _) => own(unit_of(u), "time stamps", TimeFormat::Epoch(unit_of(u)))?,
        T::Duration(u) => own(unit_of(u), "durations", TimeFormat::Unit(unit_of(u)))?,
        T::Time32(u) | T::Time64(u) => {
            own(unit_of(u), "times of day", TimeFormat::Unit(unit_of(u)))?
        }
        T::Int8
        | T::Int16
        | T::Int32
        | T::Int64
        | T::UInt8
        | T::UInt16
        | T::UInt32
        | T::UInt64
        | T::Decimal32(..)
        | T::Decimal64(..)
        | T::Decimal128(..)
        | T::Decimal256(..)
        | T::Utf8
        | T::LargeUtf8
        | T::Utf8View
        | T::Null => spec.format,
        T::Dictionary(_, v) if matches!(**v, T::Utf8 | T::LargeUtf8 | T::Utf8View) => spec.format,
        other => {
            let why = match other {
                T::Float16 | T::Float32 | T::Float64 => {
                    " (a float is not an exact time: use integers of a unit, decimals or time stamps)"
                }
                T::Date32 | T::Date64 => " (cast the dates to time stamps)",
                _ => "",
            };
            return Err(format!(
                "time: the column `{}` holds {other}, not times: integers (of a unit), decimals, \
                 time stamps, durations or text{why}",
                spec.field
            ));
        }
    };
    Ok(spec)
}
