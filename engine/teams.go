package engine

// TeamTalk is implemented by the states of games in which teams may talk
// among themselves, out of the other seats' hearing (Room 25's team mode,
// when its match offers team chat). The match reads it to route a team's
// lines of table talk; the game's rules never depend on it.
type TeamTalk interface {
	// TalkTeam returns the team whose channel seat p may use, or -1 when p
	// has none. Teams must be public knowledge: a seat's team is told to
	// everyone by routing its lines.
	TalkTeam(p Seat) int
}
