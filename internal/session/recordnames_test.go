package session

import "testing"

// A frame's name as lldb shows it names the recording's function, with
// or without the overload's parameters and qualifiers.
func TestFrameFunctionCutsTheParameterList(t *testing.T) {
	for name, want := range map[string]string{
		"shop::Cart::total() const":                 "shop::Cart::total",
		"shop::price(shop::Item const&)":            "shop::price",
		"shop::Cart::add(shop::Item const&) &&":     "shop::Cart::add",
		"(anonymous namespace)::helper(int, char*)": "(anonymous namespace)::helper",
		"shop::Box<int>::operator()(int) const":     "shop::Box<int>::operator()",
		"apply(void (*)(int), int)":                 "apply",
		"record_cart::cart::total":                  "record_cart::cart::total",
		"main.(*Cart).Total":                        "main.(*Cart).Total",
		"price":                                     "price",
		"(anonymous namespace)::helper":             "(anonymous namespace)::helper",
	} {
		if got := frameFunction(name); got != want {
			t.Errorf("frameFunction(%q) = %q, want %q", name, got, want)
		}
	}
}

// A native program's last words name its failure better than lldb's stop
// reason does; where it said nothing recognisable, the stop's words stay.
func TestFailureFromOutput(t *testing.T) {
	for _, c := range []struct{ output, kind, msg string }{
		{"total 0\r\nthread 'main' (4242) panicked at src/main.rs:19:9:\r\nbad quantity -1 for ink\r\nnote: run with `RUST_BACKTRACE=1`\r\n", "panic", "bad quantity -1 for ink"},
		{"terminate called after throwing an instance of 'std::invalid_argument'\n  what():  bad quantity for ink\n", "std::invalid_argument", "bad quantity for ink"},
		{"cart: cart.c:22: price: Assertion `it.qty >= 0' failed.\r\n", "signal", "cart: cart.c:22: price: Assertion `it.qty >= 0' failed."},
		{"total 110\n", "signal", "signal SIGSEGV"},
	} {
		kind, msg := failureFromOutput("signal", "signal SIGSEGV", c.output)
		if kind != c.kind || msg != c.msg {
			t.Errorf("after %q: %q, %q; want %q, %q", c.output, kind, msg, c.kind, c.msg)
		}
	}
}
