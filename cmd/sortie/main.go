// Command sortie runs Sortie: the match server (serve), terminal play (play),
// bulk bot simulations (sim), log replays (replay), the list of games (games),
// the server load generator (loadtest) and the rating's lab (lab).
package main

import (
	"os"

	"github.com/spf13/cobra"
)

// root is the sortie command; each subcommand adds itself in its file's init.
var root = &cobra.Command{
	Use:           "sortie",
	Short:         "Play French escape board games online, in the terminal, or bot against bot",
	SilenceUsage:  true,
	SilenceErrors: false,
}

func main() {
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
