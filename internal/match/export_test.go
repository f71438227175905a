package match

// SetHistoryLimit lowers the bound of histories for a test, and returns
// what puts it back.
func SetHistoryLimit(n int) (restore func()) {
	old := historyLimit
	historyLimit = n
	return func() { historyLimit = old }
}
