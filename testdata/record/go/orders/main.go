// Command orders reads quantities, skipping the bad ones: parseQty panics
// on a negative quantity and qtyOrZero recovers, two calls up. The record
// tests read its recording (internal/server/record_native_test.go).
package main

import (
	"fmt"
	"strconv"
	"strings"
)

func parseQty(text string) int {
	if strings.HasPrefix(text, "-") {
		panic("negative quantity " + text)
	}
	n, _ := strconv.Atoi(text)
	return n
}

func lineQty(text string) int {
	qty := parseQty(text)
	return qty
}

func qtyOrZero(text string) (qty int) {
	defer func() {
		if recover() != nil {
			qty = 0
		}
	}()
	return lineQty(text)
}

func main() {
	total := qtyOrZero("3") + qtyOrZero("-2") + qtyOrZero("4")
	fmt.Println("total", total)
}
