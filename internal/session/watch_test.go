package session

import "testing"

func TestWithoutAddressesKeepsWhatIsNotAnAddress(t *testing.T) {
	same := [][2]string{
		{"<Box object at 0x7f52c6e919d0>", "<Box object at 0x7f52c6e91950>"},
		{"{tag: *(*main.label)(0xc000012345)}", "{tag: *(*main.label)(0xc00001a000)}"},
		{"(int *) 0x00005555555592a0", "(int *) 0x00005555555592c8"},
	}
	for _, p := range same {
		if withoutAddresses(p[0]) != withoutAddresses(p[1]) {
			t.Errorf("%q and %q differ only by address", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"(int *) 0x0000000000000000", "(int *) 0x00005555555592a0"},
		{"<Box object at 0x7f52c6e919d0> 1", "<Box object at 0x7f52c6e919d0> 2"},
		{"0x10", "0x11"},
	}
	for _, p := range differ {
		if withoutAddresses(p[0]) == withoutAddresses(p[1]) {
			t.Errorf("%q and %q differ by more than an address", p[0], p[1])
		}
	}
}
