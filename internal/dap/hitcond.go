package dap

import (
	"fmt"
	"strconv"
	"strings"
)

// HitCondition is a breakpoint's parsed hitCondition, as the adapters built
// into this binary read it: stop when the hit count compares to N.
type HitCondition struct {
	op string // "" (no condition: every hit), "==", ">=", "<=", ">", "<", "%"
	n  int
}

// ParseHitCondition accepts "N" (the Nth hit only, as debugpy reads it),
// "== N", ">= N", "> N", "<= N", "< N" and "% N" (every Nth hit); the empty
// string is no condition.
func ParseHitCondition(s string) (HitCondition, error) {
	num := strings.TrimSpace(s)
	if num == "" {
		return HitCondition{}, nil
	}
	h := HitCondition{op: "=="}
	for _, op := range []string{"==", ">=", "<=", ">", "<", "%"} {
		if rest, ok := strings.CutPrefix(num, op); ok {
			h.op, num = op, strings.TrimSpace(rest)
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || h.op == "%" && n == 0 {
		return HitCondition{}, fmt.Errorf("invalid hitCondition %q: use N, == N, >= N, > N, <= N, < N or %% N", s)
	}
	h.n = n
	return h, nil
}

// Match reports whether the hits-th hit (counting from 1) stops.
func (h HitCondition) Match(hits int) bool {
	switch h.op {
	case "":
		return true
	case "==":
		return hits == h.n
	case ">=":
		return hits >= h.n
	case "<=":
		return hits <= h.n
	case ">":
		return hits > h.n
	case "<":
		return hits < h.n
	}
	return hits%h.n == 0
}
