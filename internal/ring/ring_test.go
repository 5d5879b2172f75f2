package ring

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWorstOrder(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{1, []int{0}},
		{2, []int{0, 1}},
		{3, []int{0, 2, 1}},
		{4, []int{0, 3, 1, 2}},
		{5, []int{0, 4, 1, 3, 2}},
		{6, []int{0, 5, 1, 4, 2, 3}},
		{7, []int{0, 6, 1, 5, 2, 4, 3}},
		{8, []int{0, 7, 1, 6, 2, 5, 3, 4}},
		{9, []int{0, 8, 1, 7, 2, 6, 3, 5, 4}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			assert.Equal(t, tt.want, WorstOrder(tt.n))
			for i, r := range tt.want {
				assert.Equal(t, i, WorstPos(tt.n, r), "position of %d", r)
			}
		})
	}
}

// TestWorstNeighbors: every process's neighbours are those before and
// after it in the order, so the cycle visits every process once.
func TestWorstNeighbors(t *testing.T) {
	for n := 2; n <= 9; n++ {
		order := WorstOrder(n)
		for pos, me := range order {
			l, r := WorstNeighbors(n, me)
			assert.Equal(t, order[(pos+n-1)%n], l, "n=%d: left of %d", n, me)
			assert.Equal(t, order[(pos+1)%n], r, "n=%d: right of %d", n, me)
		}
	}
	l, r := WorstNeighbors(1, 0)
	assert.Equal(t, [2]int{0, 0}, [2]int{l, r}, "one process is its own neighbour")
}
