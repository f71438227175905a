package term

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// canvas is a drawing placed by coordinates (Les Évadés' prison): a grid of
// cells, each a character in a style, said as lines of styled runs.
type canvas struct {
	w, h   int
	cells  [][]rune
	used   [][]bool // written, spaces included
	style  [][]int
	styles []lipgloss.Style
}

func newCanvas(w, h int) *canvas {
	cv := &canvas{w: w, h: h, styles: []lipgloss.Style{lipgloss.NewStyle()}}
	cv.cells = make([][]rune, h)
	cv.used = make([][]bool, h)
	cv.style = make([][]int, h)
	for y := range h {
		cv.cells[y] = []rune(strings.Repeat(" ", w))
		cv.used[y] = make([]bool, w)
		cv.style[y] = make([]int, w)
	}
	return cv
}

// put writes s from (x, y) in a style; what falls outside is left out.
func (cv *canvas) put(x, y int, s string, st lipgloss.Style) {
	if y < 0 || y >= cv.h {
		return
	}
	k := len(cv.styles)
	cv.styles = append(cv.styles, st)
	for _, r := range s {
		if x >= 0 && x < cv.w {
			cv.cells[y][x], cv.style[y][x], cv.used[y][x] = r, k, true
		}
		x++
	}
}

// free says whether the n cells from (x, y) are still unwritten.
func (cv *canvas) free(x, y, n int) bool {
	if y < 0 || y >= cv.h {
		return false
	}
	for i := x; i < x+n; i++ {
		if i >= 0 && i < cv.w && cv.used[y][i] {
			return false
		}
	}
	return true
}

// lines are the rows of the drawing, without trailing blank rows.
func (cv *canvas) lines() []string {
	var out []string
	for y := range cv.h {
		var b strings.Builder
		row := cv.cells[y]
		end := len(row)
		for end > 0 && row[end-1] == ' ' {
			end--
		}
		for x := 0; x < end; {
			k := cv.style[y][x]
			run := x
			for run < end && cv.style[y][run] == k {
				run++
			}
			text := string(row[x:run])
			if k == 0 || strings.TrimSpace(text) == "" {
				b.WriteString(text)
			} else {
				b.WriteString(cv.styles[k].Render(text))
			}
			x = run
		}
		out = append(out, b.String())
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
