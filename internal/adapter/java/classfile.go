package java

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// classFileMagic starts every class file.
const classFileMagic = 0xCAFEBABE

// className reads the binary name of the class a class file defines
// ("com.example.App"): the constant pool entry its this_class points at.
// The file's own name does not say the package, and the JVM refuses a
// class found under a name that is not its own (NoClassDefFoundError,
// "wrong name").
func className(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read class file: %w", err)
	}
	defer f.Close()
	name, err := readClassName(bufio.NewReader(f))
	if err != nil {
		return "", fmt.Errorf("read class file %s: %w", path, err)
	}
	return name, nil
}

// readClassName walks the constant pool up to this_class.
func readClassName(r io.Reader) (string, error) {
	var head struct {
		Magic        uint32
		Minor, Major uint16
		PoolCount    uint16
	}
	if err := binary.Read(r, binary.BigEndian, &head); err != nil {
		return "", err
	}
	if head.Magic != classFileMagic {
		return "", errors.New("not a class file")
	}
	utf8 := map[uint16]string{}
	classes := map[uint16]uint16{}
	for i := uint16(1); i < head.PoolCount; i++ {
		var tag uint8
		if err := binary.Read(r, binary.BigEndian, &tag); err != nil {
			return "", err
		}
		switch tag {
		case 1: // Utf8
			var n uint16
			if err := binary.Read(r, binary.BigEndian, &n); err != nil {
				return "", err
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				return "", err
			}
			utf8[i] = string(b)
		case 7: // Class
			var nameIndex uint16
			if err := binary.Read(r, binary.BigEndian, &nameIndex); err != nil {
				return "", err
			}
			classes[i] = nameIndex
		default:
			size, ok := constantSizes[tag]
			if !ok {
				return "", fmt.Errorf("unknown constant pool tag %d", tag)
			}
			if _, err := io.CopyN(io.Discard, r, size); err != nil {
				return "", err
			}
			// A long or a double takes two entries.
			if tag == 5 || tag == 6 {
				i++
			}
		}
	}
	var tail struct{ AccessFlags, ThisClass uint16 }
	if err := binary.Read(r, binary.BigEndian, &tail); err != nil {
		return "", err
	}
	name, ok := utf8[classes[tail.ThisClass]]
	if !ok {
		return "", errors.New("this_class names no class")
	}
	return strings.ReplaceAll(name, "/", "."), nil
}

// constantSizes are the sizes, after the tag, of the constant pool entries
// other than Utf8 and Class.
var constantSizes = map[uint8]int64{
	3: 4, 4: 4, 5: 8, 6: 8, // Integer, Float, Long, Double
	8: 2, 9: 4, 10: 4, 11: 4, 12: 4, // String, Fieldref, Methodref, InterfaceMethodref, NameAndType
	15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2, // MethodHandle, MethodType, Dynamic, InvokeDynamic, Module, Package
}

// classRoot is the class path root of a class file: the directory its
// package's directories start in.
func classRoot(path, class string) (string, error) {
	dir := filepath.Dir(path)
	i := strings.LastIndexByte(class, '.')
	if i < 0 {
		return dir, nil
	}
	pkgDir := filepath.FromSlash(strings.ReplaceAll(class[:i], ".", "/"))
	if !strings.HasSuffix(dir, string(filepath.Separator)+pkgDir) {
		return "", fmt.Errorf("%s holds class %s but is not in a %s directory, so no class path can load it: move it there, or launch with mainClass %q and classPaths set to the root of its package directories", path, class, pkgDir, class)
	}
	return strings.TrimSuffix(dir, string(filepath.Separator)+pkgDir), nil
}

// qualifiedName matches a class's binary name ("Main", "com.example.App").
var qualifiedName = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$`)

// namesClass reports whether a program that is no file names a main class
// to run from the class path ("com.example.App"), rather than a missing
// .java, .class or .jar file.
func namesClass(program string) bool {
	base := filepath.Base(program)
	for _, ext := range []string{".java", ".class", ".jar", ".kt"} {
		if strings.HasSuffix(base, ext) {
			return false
		}
	}
	if !qualifiedName.MatchString(base) {
		return false
	}
	_, err := os.Stat(program)
	return errors.Is(err, os.ErrNotExist)
}
