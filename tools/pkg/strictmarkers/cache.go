package strictmarkers

import (
	"sync"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// LineCache keeps what Scan found on each marker text for the next scan
// with the same cache (codegen watch, which scans the root packages on
// every cycle though most of their lines did not change). What checkLine
// finds on a line depends on its text and on the marker definitions
// alone, which every universe registers alike (goload.NewRegistry); only
// the position of a finding is the line's own. After a scan the cache
// holds the texts that scan saw.
//
// A LineCache is safe for concurrent use.
type LineCache struct {
	mu sync.Mutex
	m  map[string]lineVerdict
	// Reused counts the lines served from the cache, Checked those a scan
	// checked itself.
	Reused, Checked int
}

// lineVerdict is what checkLine found on a text, positioned nowhere.
type lineVerdict struct {
	problems []diag.Diagnostic
	value    any
}

// NewLineCache returns an empty cache.
func NewLineCache() *LineCache { return &LineCache{m: map[string]lineVerdict{}} }

// check is checkLine through the cache: the kept verdict on l's text,
// positioned at l, else checkLine's, noted in seen for keep.
func (c *LineCache) check(check func(markerLine) scannedLine, l markerLine, seen map[string]lineVerdict) scannedLine {
	if c == nil {
		return check(l)
	}
	c.mu.Lock()
	v, ok := c.m[l.text]
	if ok {
		c.Reused++
	} else {
		c.Checked++
	}
	c.mu.Unlock()
	if !ok {
		s := check(l)
		v = lineVerdict{problems: make([]diag.Diagnostic, len(s.problems)), value: s.value}
		for i, d := range s.problems {
			d.File, d.Line = "", 0
			v.problems[i] = d
		}
	}
	seen[l.text] = v
	out := scannedLine{markerLine: l, value: v.value}
	for _, d := range v.problems {
		d.File, d.Line = l.file, l.line
		out.problems = append(out.problems, d)
	}
	return out
}

// keep replaces what the cache holds by the verdicts of one scan.
func (c *LineCache) keep(seen map[string]lineVerdict) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = seen
}
