package history

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/climated/climated/internal/excerpt"
	"github.com/climated/climated/sensors"
)

// ImportOptions say what to do with broken lines.
type ImportOptions struct {
	// SkipBad imports the good lines of a file that has broken ones (and
	// reports the broken ones); without it, a file with any broken line
	// imports nothing.
	SkipBad  bool
	Progress func(n int64)
	// What names the file's lines in messages: "line" (the default) or
	// "row".
	What string
}

// ImportRow is one line or row of an import: its good readings, and what
// is wrong with the rest of it, if anything.
type ImportRow struct {
	Line     int    // its number, for messages
	Where    string // how messages name it; "" is "line <Line>"
	Readings []sensors.Reading
	Err      error // nil for a good row
}

// ImportRows yields an import's rows in order, and io.EOF after the
// last; any other error ends the import with nothing imported.
type ImportRows interface {
	Next(ctx context.Context) (ImportRow, error)
}

// ImportResult says what an import did.
type ImportResult struct {
	Imported int64
	// Summarised counts the readings not imported because they fall, past
	// the raw retention, into spans the history summarises already (an
	// earlier import of the same file, or readings recorded then): it
	// keeps no instant that old, so it cannot tell them from repeats.
	Summarised int64
	Bad        BrokenLines
}

// BrokenLines counts the broken lines of an import file and keeps the first
// MaxListed of them: a file of a million broken lines costs no more
// memory than one of twenty.
type BrokenLines struct {
	N     int         // how many lines were broken
	First []LineError // the first MaxListed of them, in order
}

// MaxListed is how many broken lines an import keeps and lists.
const MaxListed = 20

// Add counts e, keeping it among the first MaxListed.
func (b *BrokenLines) Add(e LineError) {
	b.N++
	if len(b.First) < MaxListed {
		b.First = append(b.First, e)
	}
}

// Err lists the first broken lines, and how many more there are; nil
// when there is none.
func (b BrokenLines) Err() error {
	errs := make([]error, 0, len(b.First)+1)
	for _, e := range b.First {
		errs = append(errs, e)
	}
	if more := b.N - len(b.First); more > 0 {
		errs = append(errs, fmt.Errorf("and %d more", more))
	}
	return errors.Join(errs...)
}

// LineError is a broken line of an import file.
type LineError struct {
	Line  int
	Where string // how it is named; "" is "line <Line>"
	Err   error
}

func (e LineError) Error() string {
	if e.Where != "" {
		return fmt.Sprintf("%s: %v", e.Where, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

// importChunk is how many readings go to the database at once; they all
// belong to one transaction, so an import is whole or absent.
const importChunk = 5000

// Import reads CSV in Export's format (header line first) and records its
// readings in one transaction: after an error nothing of the file is in the
// database, and the error says so. Lines that do not parse or hold an
// impossible value are listed with their numbers. It must not run while
// the store records readings of its own.
func (s *Store) Import(ctx context.Context, r io.Reader, o ImportOptions) (ImportResult, error) {
	if s.readOnly {
		return ImportResult{}, ErrReadOnly
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	if err := readImportHeader(cr); err != nil {
		return ImportResult{}, err
	}
	return s.ImportRows(ctx, &csvRows{cr: cr, line: 1}, o)
}

// ImportRows records the readings of rows as Import does the lines of a
// CSV file: in one transaction, whole or not at all, the broken rows
// listed (and, with SkipBad, their good readings kept).
func (s *Store) ImportRows(ctx context.Context, rows ImportRows, o ImportOptions) (ImportResult, error) {
	var res ImportResult
	if s.readOnly {
		return res, ErrReadOnly
	}
	tx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("import: begin: %w", err)
	}
	defer tx.Rollback()
	im := &importer{w: s.w, tx: tx, tw: newTxState(), o: o, chunk: make([]sensors.Reading, 0, importChunk)}
	if err := im.readRows(ctx, rows, &res); err != nil {
		return res, fmt.Errorf("import: nothing imported: %w", err)
	}
	if res.Bad.N > 0 && !o.SkipBad {
		return res, fmt.Errorf("import: nothing imported: %s (import the good ones with --skip-bad): %w", brokenLines(res.Bad.N, o.What), res.Bad.Err())
	}
	if err := im.flush(ctx); err != nil {
		return res, fmt.Errorf("import: nothing imported: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("import: nothing imported: commit: %w", err)
	}
	s.w.adopt(im.tw)
	res.Imported, res.Summarised = im.written, im.tw.summarised
	return res, nil
}

// readImportHeader reads the first line and checks that it is Export's
// header.
func readImportHeader(cr *csv.Reader) error {
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("import: line 1: %w", err)
	}
	if !slices.Equal(header, ExportHeader) {
		return fmt.Errorf("import: line 1: header %q, want %q (climated export's CSV)", strings.Join(header, ","), strings.Join(ExportHeader, ","))
	}
	return nil
}

// importer writes an import's readings within its one transaction, a
// chunk at a time.
type importer struct {
	w       *writer
	tx      *sql.Tx
	tw      *txState
	o       ImportOptions
	chunk   []sensors.Reading
	written int64 // readings written so far, those the claim skipped or deleted left out
}

// readRows reads the rows, counts the broken ones in res.Bad and writes
// the good readings; it returns the error of a read or a write.
func (im *importer) readRows(ctx context.Context, rows ImportRows, res *ImportResult) error {
	for {
		row, err := rows.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		row = sinceEarliest(row)
		if row.Err != nil {
			res.Bad.Add(LineError{Line: row.Line, Where: row.Where, Err: row.Err})
		}
		if res.Bad.N > 0 && !im.o.SkipBad {
			continue // nothing will be written: only look for more broken lines
		}
		im.chunk = append(im.chunk, named(row.Readings)...)
		if len(im.chunk) >= importChunk {
			if err := im.flush(ctx); err != nil {
				return err
			}
		}
	}
}

// sinceEarliest leaves out the readings of row stamped before Earliest,
// and says so: no query can name their time, and the rollups' buckets of
// times before 1970 are not those the checks of what they summarise
// read, so such a reading could be neither read back nor told from a
// repeat.
func sinceEarliest(row ImportRow) ImportRow {
	kept := row.Readings[:0]
	for _, r := range row.Readings {
		if !r.Time.Before(Earliest) {
			kept = append(kept, r)
			continue
		}
		if row.Err == nil {
			row.Err = fmt.Errorf("time %s is before %s, the earliest the history keeps", r.Time.UTC().Format(time.RFC3339), Earliest.Format(time.DateOnly))
		}
	}
	row.Readings = kept
	return row
}

// ImportSource is the source of an imported reading that names none (an
// empty source column: a thermometer's own log, an export from before
// sources were named): a measured one, as sensors.Claim tells them, so
// that such a reading never joins a series the demo filled as one of its
// simulated readings, nor goes when the demo's readings are forgotten.
const ImportSource = "import"

// named gives the readings of rs without a source ImportSource, in place.
func named(rs []sensors.Reading) []sensors.Reading {
	for i := range rs {
		if rs[i].Source == "" {
			rs[i].Source = ImportSource
		}
	}
	return rs
}

// csvRows are the lines of a CSV file in Export's format after its
// header.
type csvRows struct {
	cr   *csv.Reader
	line int
}

func (c *csvRows) Next(context.Context) (ImportRow, error) {
	rec, err := c.cr.Read()
	if errors.Is(err, io.EOF) {
		return ImportRow{}, io.EOF
	}
	c.line++
	row := ImportRow{Line: c.line, Err: err}
	if err == nil {
		var rd sensors.Reading
		if rd, row.Err = parseExportLine(rec); row.Err == nil {
			row.Readings = []sensors.Reading{rd}
		}
	}
	return row, nil
}

// flush writes the chunk and reports the progress.
func (im *importer) flush(ctx context.Context) error {
	if len(im.chunk) == 0 {
		return nil
	}
	if err := im.w.writeTx(ctx, im.tx, im.tw, im.chunk, replaceAmounts); err != nil {
		return err
	}
	im.written = im.tw.writtenAll()
	if im.o.Progress != nil {
		im.o.Progress(im.written)
	}
	im.chunk = im.chunk[:0]
	return nil
}

func parseExportLine(rec []string) (sensors.Reading, error) {
	if len(rec) != len(ExportHeader) {
		return sensors.Reading{}, fmt.Errorf("%d fields, want %d (%s)", len(rec), len(ExportHeader), strings.Join(ExportHeader, ","))
	}
	t, err := time.Parse(time.RFC3339, rec[0])
	if err != nil {
		return sensors.Reading{}, fmt.Errorf("time %s: want RFC 3339, e.g. 2026-11-30T08:00:00Z", excerpt.Quote(rec[0]))
	}
	v, err := strconv.ParseFloat(rec[3], 64)
	if err != nil {
		return sensors.Reading{}, fmt.Errorf("value %s is not a number", excerpt.Quote(rec[3]))
	}
	r := sensors.Reading{Time: t, Zone: rec[1], Measurement: sensors.Measurement(rec[2]), Value: v, Source: rec[4]}
	if err := r.Validate(); err != nil {
		return sensors.Reading{}, err
	}
	return r, nil
}

// brokenLines counts n broken lines (or what) in words.
func brokenLines(n int, what string) string {
	if what == "" {
		what = "line"
	}
	if n == 1 {
		return "1 broken " + what
	}
	return fmt.Sprintf("%d broken %ss", n, what)
}
