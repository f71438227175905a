package term

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// styles are the colours and weights of the screen. Without colour
// (--no-color, NO_COLOR) they keep bold and reverse, and every meaning a
// colour carries is also said in words or shapes (▸ for whose turn it is).
type styles struct {
	r        *lipgloss.Renderer
	title    lipgloss.Style
	bold     lipgloss.Style
	dim      lipgloss.Style
	mine     lipgloss.Style // it is your turn
	acting   lipgloss.Style
	refusal  lipgloss.Style
	selected lipgloss.Style
	good     lipgloss.Style
	bad      lipgloss.Style
	warn     lipgloss.Style
	accent   lipgloss.Style
	box      lipgloss.Style
	seat     []lipgloss.Style
}

// The Okabe–Ito colours of the web page's seats.
var seatColours = []string{"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"}

func newStyles(out io.Writer, colour bool) *styles {
	r := lipgloss.NewRenderer(out)
	if !colour {
		r.SetColorProfile(termenv.Ascii)
	}
	// The background is not asked of the terminal (an answer can take
	// seconds): the colours below read on dark and light backgrounds.
	r.SetHasDarkBackground(true)
	s := &styles{r: r}
	s.title = r.NewStyle().Bold(true).Reverse(true)
	s.bold = r.NewStyle().Bold(true)
	s.dim = r.NewStyle().Faint(true)
	s.mine = r.NewStyle().Bold(true).Foreground(lipgloss.Color("#009e73"))
	s.acting = r.NewStyle().Bold(true)
	s.refusal = r.NewStyle().Bold(true).Foreground(lipgloss.Color("#d55e00"))
	s.selected = r.NewStyle().Reverse(true)
	s.good = r.NewStyle().Foreground(lipgloss.Color("#009e73"))
	s.bad = r.NewStyle().Foreground(lipgloss.Color("#d55e00"))
	s.warn = r.NewStyle().Foreground(lipgloss.Color("#e69f00"))
	s.accent = r.NewStyle().Foreground(lipgloss.Color("#56b4e9"))
	s.box = r.NewStyle().Border(lipgloss.RoundedBorder())
	for _, c := range seatColours {
		s.seat = append(s.seat, r.NewStyle().Bold(true).Foreground(lipgloss.Color(c)))
	}
	return s
}

func (s *styles) seatStyle(seat int) lipgloss.Style { return s.seat[((seat%6)+6)%6] }
