"""Output and trace fixture for the byte-size tests; README.md lists its lines."""
import sys
import time


def main():
    labels = []
    for i in range(20):
        label = str(i)
        labels.append(label)
    for n in range(50):
        print("line %d of the program's output" % n, flush=True)
        time.sleep(0.002)  # lines that come one by one, as from a program at work
    print("labels", len(labels), flush=True)
    sys.stderr.write("a warning on stderr\n")
    print("done", flush=True)


if __name__ == "__main__":
    main()
