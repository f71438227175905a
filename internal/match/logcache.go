// The log cache: the stored records and lines of talk of the matches this
// node read lately, kept in memory within a budget of bytes, with states at
// some of their records. The history of a reconnecting socket and the views
// of a replay's steps are rebuilt from it without reading the store, which
// also lets them go on while the store cannot be read.
//
// What the cache holds was stored: a match in memory adds each record and
// line to its entry only once the store has taken it. A record's place is
// checked as it comes, so that an entry is never a log with a hole (an
// entry that would be is let go). Entries nobody used for a while, and
// beyond the budget the least recently used, are let go.

package match

import (
	"container/list"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// Defaults of the log cache (see Config.LogCache).
const (
	defaultLogCache = 32 << 20
	// logCacheIdle: an entry nobody used this long is let go, so that idle
	// matches keep no copy of their log.
	logCacheIdle = 2 * time.Minute
	// stepEvery: a step view keeps the state after every stepEvery-th
	// record it replayed, so that the next view near it replays at most
	// stepEvery-1 records.
	stepEvery = 8
	// stateCost is what a kept state is counted for in the budget: states
	// hold no count of their bytes, and those of the games here take a few
	// KiB (a Temple state of four seats, the largest, about 6 KiB).
	stateCost = 8 << 10
	// entryCost is an entry's own cost, beyond what it holds.
	entryCost = 256
	// sliceCost is the cost of each record or line beyond its bytes.
	sliceCost = 24
)

// logCache is the cache; its methods are safe for concurrent use.
type logCache struct {
	max  int64
	idle time.Duration

	mu   sync.Mutex
	size int64
	lru  list.List // of *logEntry, the most recently used first
	by   map[string]*list.Element
}

// logEntry is what the cache holds of one match.
type logEntry struct {
	id       string
	recs     [][]byte // the first len(recs) records of the log
	chat     [][]byte // the first len(chat) lines of talk, if chatKnown
	chatKnow bool
	points   []stepPoint  // states after some records, by record
	over     *store.Match // the match's row once it is over (see overRecord), shared
	size     int64
	used     time.Time
}

// stepPoint is the state after record k, which nobody may change: it is
// cloned before use.
type stepPoint struct {
	k     int
	at    engine.Millis
	state engine.State
}

func newLogCache(max int64) *logCache {
	return &logCache{max: max, idle: logCacheIdle, by: make(map[string]*list.Element)}
}

// entry returns id's entry, made if new, as the most recently used; the
// caller holds mu.
func (c *logCache) entry(id string, now time.Time) *logEntry {
	if el := c.by[id]; el != nil {
		c.lru.MoveToFront(el)
		e := el.Value.(*logEntry)
		e.used = now
		return e
	}
	e := &logEntry{id: id, used: now, size: entryCost}
	c.by[id] = c.lru.PushFront(e)
	c.size += e.size
	return e
}

// grow counts n more bytes for e and lets the least recently used entries go
// while the cache is over its budget (e itself last); the caller holds mu.
func (c *logCache) grow(e *logEntry, n int64) {
	e.size += n
	c.size += n
	for c.size > c.max {
		el := c.lru.Back()
		if el == nil {
			return
		}
		c.remove(el)
		if el.Value.(*logEntry) == e {
			return
		}
	}
}

func (c *logCache) remove(el *list.Element) {
	e := el.Value.(*logEntry)
	c.lru.Remove(el)
	delete(c.by, e.id)
	c.size -= e.size
}

// putLog keeps the log of match id as read from the store (it may be longer
// than what the entry holds, never shorter).
func (c *logCache) putLog(id string, recs [][]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(id, time.Now())
	if len(recs) <= len(e.recs) {
		return
	}
	n := int64(0)
	for _, r := range recs[len(e.recs):] {
		n += int64(len(r)) + sliceCost
	}
	e.recs = append(e.recs, recs[len(e.recs):]...)
	c.grow(e, n)
}

// putChat keeps the lines of talk of match id as read from the store.
func (c *logCache) putChat(id string, lines [][]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(id, time.Now())
	if e.chatKnow && len(lines) <= len(e.chat) {
		return
	}
	n := int64(0)
	for _, l := range lines[len(e.chat):] {
		n += int64(len(l)) + sliceCost
	}
	e.chat, e.chatKnow = append(e.chat, lines[len(e.chat):]...), true
	c.grow(e, n)
}

// addRecord adds record n (counting from 1), just stored, to match id's
// entry if it has one: in place, or else the entry, which would have a hole,
// goes.
func (c *logCache) addRecord(id string, n int, rec []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return
	}
	e := el.Value.(*logEntry)
	switch {
	case len(e.recs) >= n:
		return // read from the store meanwhile
	case len(e.recs) < n-1:
		c.remove(el)
		return
	}
	e.recs = append(e.recs, rec)
	c.grow(e, int64(len(rec))+sliceCost)
}

// addChat adds line n of talk, just stored, as addRecord adds a record.
func (c *logCache) addChat(id string, n int, line []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return
	}
	e := el.Value.(*logEntry)
	if !e.chatKnow {
		return
	}
	switch {
	case len(e.chat) >= n:
		return
	case len(e.chat) < n-1:
		c.remove(el)
		return
	}
	e.chat = append(e.chat, line)
	c.grow(e, int64(len(line))+sliceCost)
}

// records returns the first n records of match id's log, if the cache holds
// them. The records are shared: nobody may change them.
func (c *logCache) records(id string, n int) ([][]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return nil, false
	}
	e := el.Value.(*logEntry)
	if len(e.recs) < n {
		return nil, false
	}
	c.lru.MoveToFront(el)
	e.used = time.Now()
	return e.recs[:n:n], true
}

// lines returns the first n lines of match id's talk, if the cache holds
// them.
func (c *logCache) lines(id string, n int) ([][]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return nil, false
	}
	e := el.Value.(*logEntry)
	if !e.chatKnow || len(e.chat) < n {
		return nil, false
	}
	c.lru.MoveToFront(el)
	e.used = time.Now()
	return e.chat[:n:n], true
}

// nearest returns the kept state of match id at the largest record at or
// before k, if any; the caller clones it before changing it.
func (c *logCache) nearest(id string, k int) (stepPoint, bool) {
	if c == nil {
		return stepPoint{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return stepPoint{}, false
	}
	e := el.Value.(*logEntry)
	best, found := stepPoint{}, false
	for _, p := range e.points {
		if p.k <= k && (!found || p.k > best.k) {
			best, found = p, true
		}
	}
	return best, found
}

// keepState keeps st, the state after record k of match id's log, for the
// step views near it; st must never be changed again.
func (c *logCache) keepState(id string, k int, at engine.Millis, st engine.State) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return // a log not kept: its states would be let go with it
	}
	e := el.Value.(*logEntry)
	for _, p := range e.points {
		if p.k == k {
			return
		}
	}
	e.points = append(e.points, stepPoint{k: k, at: at, state: st})
	c.grow(e, stateCost)
}

// overRecord returns the row of match id kept once it was over (finished,
// expired or abandoned: a row that changes no more but to fail), shared:
// nobody may change it.
func (c *logCache) overRecord(id string) (*store.Match, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.by[id]
	if el == nil {
		return nil, false
	}
	e := el.Value.(*logEntry)
	if e.over == nil {
		return nil, false
	}
	c.lru.MoveToFront(el)
	e.used = time.Now()
	return e.over, true
}

// keepOverRecord keeps rec, the row of a match over, if its log is kept.
func (c *logCache) keepOverRecord(rec *store.Match) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el := c.by[rec.ID]; el != nil {
		el.Value.(*logEntry).over = rec
	}
}

// drop lets match id's entry go.
func (c *logCache) drop(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el := c.by[id]; el != nil {
		c.remove(el)
	}
}

// sweep lets go the entries nobody used since before now less the idle time.
func (c *logCache) sweep(now time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Back(); el != nil; {
		e := el.Value.(*logEntry)
		if now.Sub(e.used) < c.idle {
			return
		}
		prev := el.Prev()
		c.remove(el)
		el = prev
	}
}

// bytes returns what the cache counts it holds.
func (c *logCache) bytes() int64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}
