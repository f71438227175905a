package term

// boardOf returns the board of a game, or the generic board.
func boardOf(game string) board {
	switch game {
	case "plandesecours":
		return &pds{}
	case "temple":
		return &temple{sel: map[int]bool{}}
	case "room25":
		return room25{}
	case "evades":
		return &evades{}
	case "outran":
		return &outran{}
	}
	return generic{}
}
