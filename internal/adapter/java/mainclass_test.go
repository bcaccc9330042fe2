package java

import (
	"slices"
	"testing"
)

func TestSourceClasses(t *testing.T) {
	for _, c := range []struct {
		name, src string
		top       []string
		withMain  string
	}{
		{"main first", "public class App { public static void main(String[] a) {} }\nclass Helper {}", []string{"App", "Helper"}, "App"},
		{"main second", "import java.util.*;\nclass Pair { int a; }\n/* class Fake { static void main( */\npublic class Main {\n  static String s = \"}{ class X\";\n  public static void main(String... args) { char c = '}'; }\n}\n", []string{"Pair", "Main"}, "Main"},
		{"nested main is not top-level", "class Outer { static class Inner { public static void main(String[] a) {} } }", []string{"Outer"}, ""},
		{"record and enum", "record P(int x) {}\nenum E { A }\nfinal class Run { public static final void main(String[] a) {} }", []string{"P", "E", "Run"}, "Run"},
		{"no main", "class A {}", []string{"A"}, ""},
	} {
		top, withMain := sourceClasses(c.src)
		if !slices.Equal(top, c.top) || withMain != c.withMain {
			t.Errorf("%s: classes %v, main in %q; want %v, %q", c.name, top, withMain, c.top, c.withMain)
		}
	}
}
