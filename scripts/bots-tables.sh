#!/usr/bin/env bash
# Regenerates the level tables of docs/bots.md: for each game, easy, medium
# and hard bots as teams of one kind and against each other, with 95%
# intervals, at the game's default player count (two where it allows).
#
#   scripts/bots-tables.sh [game ...]     (default: every registered game)
#
# It prints Markdown on standard output, one section per game, each table
# under the command that makes it; paste a game's section into docs/bots.md.
# Environment:
#   GAMES_CHEAP  games per batch of easy and medium bots (default 1000)
#   GAMES_HARD   games per batch with a hard bot (default 200)
#   SORTIE_BIN   a sortie binary to use instead of building one
#
# The hard batches search: a game of Plan de Secours takes about a second of
# one core, a game of Room 25 a few seconds (200 games of each hard batch
# about ten minutes on two cores) and one of Les Évadés several (set
# GAMES_HARD to a few dozen for it). The batches use every core.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${SORTIE_BIN:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/sortie
	go build -o "$bin" ./cmd/sortie
fi
cheap=${GAMES_CHEAP:-1000}
hard=${GAMES_HARD:-200}

games=("$@")
if [ ${#games[@]} -eq 0 ]; then
	# 'sortie games' starts each game's line with its id.
	mapfile -t games < <("$bin" games | awk '/^[a-z0-9]/ {print $1}')
fi

run() {
	local g=$1
	shift
	printf '```\nsortie sim %s %s --markdown\n```\n\n' "$g" "$*"
	"$bin" sim "$g" "$@" --markdown
	echo
}

for g in "${games[@]}"; do
	printf '### %s\n\n' "$g"
	run "$g" --games "$cheap" --bots easy --bots medium --bots medium,easy
	run "$g" --games "$hard" --bots hard --bots hard,medium --bots hard,easy
done
