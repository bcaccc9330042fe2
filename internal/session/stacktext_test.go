package session

import "testing"

func TestCompactTrace(t *testing.T) {
	python := `  File "/home/me/proj/shop.py", line 19, in unit_price
    return price / size
           ~~~~~~^~~~~~
  File "/home/me/proj/shop.py", line 19, in <genexpr>
    return price / size
  File "/home/me/proj/test_shop.py", line 9, in test_invoice_total (Current frame)
    assert round(invoice(order), 2) == 14.2
  File "/usr/lib/python3/site.py", line 3, in f`
	want := `shop.py:19 in unit_price, <genexpr>: return price / size
test_shop.py:9 in test_invoice_total: assert round(invoice(order), 2) == 14.2
/usr/lib/python3/site.py:3 in f`
	if got := compactTrace(python, "/home/me/proj/"); got != want {
		t.Errorf("python:\n%s\nwant\n%s", got, want)
	}
	js := `RangeError: unit price is not finite
    at unitPrice (/home/me/proj/shop.js:20:40)
    at Array.reduce (<anonymous>)
    at TestContext.<anonymous> (/home/me/proj/shop.test.js:10:33)
    at Test.run (node:internal/test_runner/test:796:25)
    at node:internal/test_runner/harness:255:12
    at dep (/home/me/proj/node_modules/lib/index.js:5:1)`
	want = "at unitPrice (shop.js:20:40)\nat TestContext.<anonymous> (shop.test.js:10:33)"
	if got := compactTrace(js, "/home/me/proj", "RangeError: unit price is not finite"); got != want {
		t.Errorf("javascript:\n%s\nwant\n%s", got, want)
	}
	want = "(in /srv/app)\nat unitPrice (shop.js:20:40)\nat shop.js:30:51\nat TestContext.<anonymous> (shop.test.js:10:33)"
	nested := "    at unitPrice (/srv/app/shop.js:20:40)\n    at /srv/app/shop.js:30:51\n    at TestContext.<anonymous> (/srv/app/shop.test.js:10:33)"
	if got := compactTrace(nested, "/home/me/proj"); got != want {
		t.Errorf("javascript:\n%s\nwant\n%s", got, want)
	}
	deep := `  File "/p/pkg/a.py", line 3, in f
    f()
  File "/p/pkg/b.py", line 9, in g
    g()`
	if got, want := compactTrace(deep, "/p"), "(in pkg)\na.py:3 in f: f()\nb.py:9 in g: g()"; got != want {
		t.Errorf("one directory:\n%s\nwant\n%s", got, want)
	}
	if got := compactTrace(js, "", "TypeError: other"); got[:11] != "RangeError:" {
		t.Errorf("a first line that is not the exception's stays: %q", got)
	}
}
