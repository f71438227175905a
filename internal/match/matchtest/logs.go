package matchtest

import (
	"log/slog"
	"strings"
	"sync"
)

// Logs keeps the lines a server or a match manager logs, so that a test can
// count them: Logger is the logger to give it.
type Logs struct {
	mu sync.Mutex
	b  strings.Builder
}

// Logger returns a logger of text lines, from the info level up, into l.
func (l *Logs) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// Write keeps p.
func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// Lines returns the lines of the given level ("ERROR", "INFO"…) that hold
// text.
func (l *Logs) Lines(level, text string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.b.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, text) {
			out = append(out, line)
		}
	}
	return out
}
